// A double-precision special-function kernel in the style of cephes'
// Bessel functions (issue 15; test_wave_model's f64_kernel_finishes
// compiles it with clang-19 at test time: it is not in tests/kernels/, so
// the suite and test_threads do not carry its 200,000-word modules): J0,
// J1 and Jn by power series (loops until the term is negligible), Jn for
// n >= x by a continued fraction for J_n / J_{n-1} (modified Lentz) and a
// downward recurrence, for n < x by the upward recurrence, Y0 by
// Neumann's series with a log of our own (a halving loop and an atanh
// series), and polynomials evaluated by Horner loops over constant tables
// (cephes' polevl / p1evl). Our own code;
// it aims at the shape of such kernels (divisions, loops whose trip counts
// depend on the argument), not at accuracy. FP_CONTRACT OFF: every
// operation is one IEEE operation, so PoCL's results and the GPU code's
// must be equal bit for bit.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

constant double P_AMP[8] = {1.0, -0.0703125, 0.112152099609375, -0.5725014209747314,
                            6.074042001273483, -110.01714026924674, 3038.090510922384, -118838.42625678325};
constant double Q_PH[8] = {-0.125, 0.0732421875, -0.22710800170898438, 1.7277275025844574,
                           -24.380529699556064, 551.3358961220206, -18257.755474293175, 832859.3040162893};
constant double R_DEN[5] = {1.0, 0.25, 0.046875, 0.005859375, 0.00048828125};

static double polevl(double x, constant const double *c, int n)
{
    double r = c[0];
    for (int i = 1; i <= n; i++)
        r = r * x + c[i];
    return r;
}

static double p1evl(double x, constant const double *c, int n)
{
    double r = x + c[0];
    for (int i = 1; i < n; i++)
        r = r * x + c[i];
    return r;
}

static double my_fabs(double x) { return x < 0.0 ? -x : x; }

static double jn_series(int n, double x)
{
    double h = 0.5 * x, t = 1.0;
    for (int i = 1; i <= n; i++)
        t = t * h / (double)i;
    double s = t, q = -(h * h);
    for (int k = 1; k < 120; k++) {
        t = t * q / ((double)k * (double)(k + n));
        s = s + t;
        if (my_fabs(t) <= 1e-17 * my_fabs(s))
            break;
    }
    return s;
}

/* J_n(x) / J_{n-1}(x), modified Lentz */
static double jn_ratio(int n, double x)
{
    const double tiny = 1e-300;
    double f = tiny, C = f, D = 0.0;
    for (int m = 0; m < 400; m++) {
        double a = m == 0 ? 1.0 : -1.0;
        double b = 2.0 * (double)(n + m) / x;
        D = b + a * D;
        if (D == 0.0)
            D = tiny;
        C = b + a / C;
        if (C == 0.0)
            C = tiny;
        D = 1.0 / D;
        double delta = C * D;
        f = f * delta;
        if (my_fabs(delta - 1.0) < 1e-16)
            break;
    }
    return f;
}

static double jn_any(int n, double x, double j0, double j1)
{
    if (n == 0)
        return j0;
    if (n == 1)
        return j1;
    if ((double)n < x) {
        double a = j0, b = j1;
        for (int k = 1; k < n; k++) {
            double c = 2.0 * (double)k / x * b - a;
            a = b;
            b = c;
        }
        return b;
    }
    /* downward from J_n = r, J_{n-1} = 1, normalized by J0 */
    double r = jn_ratio(n, x), hi = r, lo = 1.0;
    for (int k = n - 1; k > 0; k--) {
        double c = 2.0 * (double)k / x * lo - hi;
        hi = lo;
        lo = c;
    }
    return r / lo * j0;
}

static double my_log(double x)
{
    int e = 0;
    while (x > 1.5) {
        x = x * 0.5;
        e++;
    }
    while (x < 0.75) {
        x = x * 2.0;
        e--;
    }
    double z = (x - 1.0) / (x + 1.0), z2 = z * z, t = z, s = 0.0;
    for (int k = 1; k < 80; k += 2) {
        double d = t / (double)k;
        s = s + d;
        if (my_fabs(d) < 1e-18)
            break;
        t = t * z2;
    }
    return 2.0 * s + (double)e * 0.6931471805599453;
}

static double y0_neumann(double x, double j0)
{
    const double two_pi = 0.6366197723675814, gam = 0.5772156649015329;
    double q = 0.25 * x * x, t = 1.0, h = 0.0, s = 0.0;
    for (int k = 1; k < 120; k++) {
        t = t * (-q) / ((double)k * (double)k);
        h = h + 1.0 / (double)k;
        double d = t * h;
        s = s + d;
        if (my_fabs(d) <= 1e-17 * (my_fabs(s) + 1e-300))
            break;
    }
    return two_pi * ((my_log(0.5 * x) + gam) * j0 - s);
}

kernel void bessel_f64(global const uint *in, global double *out)
{
    uint gid = get_global_id(0);
    /* x in (0, 8]: multiples of 2^-12 (up to 20 the loops of a wave32 run
     * need more iterations than lavapipe gives an invocation: docs/wave-model.md) */
    double x = (double)((in[gid] & 0x7fffu) + 1u) * 0.000244140625;
    int n = (int)(in[gid] >> 28) + 2;
    double j0 = jn_series(0, x), j1 = jn_series(1, x);
    double jn = jn_any(n, x, j0, j1);
    double y0 = y0_neumann(x, j0);
    double w = 8.0 / (x + 8.0);
    double amp = polevl(w * w, P_AMP, 7) / p1evl(w, R_DEN, 5);
    double ph = polevl(w * w, Q_PH, 7) * w;
    out[4 * gid + 0] = j0 + amp * 1e-3;
    out[4 * gid + 1] = j1 - ph * 1e-3;
    out[4 * gid + 2] = jn;
    out[4 * gid + 3] = y0;
}
