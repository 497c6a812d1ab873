#!/usr/bin/env python3
"""piglit_cs.py: turns one piglit compute test (a .shader_test of OpenGL
GLSL) into Vulkan GLSL and a run plan, mechanically (docs/aco.md, "The
piglit corpus"). Our code; piglit's tests are read from the Debian package
at test time (scripts/install-piglit.sh), never committed.

usage: piglit_cs.py TEST.shader_test OUT_STEM
       piglit_cs.py --batch OUT_DIR TEST.shader_test...

Writes OUT_STEM.comp (Vulkan GLSL, a "// layout:" line for regen.sh) and
OUT_STEM.plan (what test_aco_corpus dispatches and checks), or prints
"refused: REASON" and exits 3 where the test needs what the adapter does not
rewrite (samplers, image loads or atomics, several shaders, other stages).

The rewrite, every rule a text substitution:
  - "#version" becomes 450; the extensions Vulkan GLSL has as core are
    dropped (compute, storage buffers, atomic counters, image load/store).
  - Every loose "uniform T name;" becomes a member of one std430 readonly
    storage buffer "WlUniforms" (binding 0), the members in declaration
    order; the test's "uniform T name v..." lines give its bytes before
    each dispatch (std430 layout computed here).
  - "writeonly uniform image2D tex" becomes a vec4 storage buffer of
    W x H texels (the size from "texture rgbw 0 (W, H)"), imageStore(tex,
    c, v) a store of v at c.y * W + c.x (out of bounds: no store, as for
    an image); the texels start at -1.0, a value no probe expects.
  - "layout(binding = b, offset = o) uniform atomic_uint a" becomes word
    o / 4 (or the next word of binding b) of a coherent uint storage buffer;
    atomicCounterIncrement(a) is atomicAdd(a, 1u) (both return the old
    value), atomicCounterDecrement(a) is atomicAdd(a, ~0u) - 1u (the new
    value), atomicCounter(a) is atomicAdd(a, 0u) (a read of the current
    value), memoryBarrierAtomicCounter() is memoryBarrierBuffer().
  - "buffer B {" blocks get an explicit binding (piglit's binding b, 0 when
    unnamed, maps to the next free one).
  - The generated built-in tests compute "T result = ...;": after that
    statement the value is also stored in a "raw" buffer, one element per
    invocation of the work-group, so that the result itself (not only the
    shader's own verdict) is compared: with the uniform "expected" (within
    the uniform "tolerance", as the shader's verdict does) and with the
    native run.
Bindings are numbered in the order uniforms, image, raw, counters, piglit
SSBOs.
"""
import re
import struct
import sys

# name: (scalar kind, components, columns)
SCALARS = {"float": "f32", "int": "i32", "uint": "u32", "bool": "b32",
           "double": "f64", "int64_t": "i64", "uint64_t": "u64"}
VEC_PREFIX = {"": "f32", "i": "i32", "u": "u32", "b": "b32", "d": "f64",
              "i64": "i64", "u64": "u64"}


class Refused(Exception):
    pass


def parse_type(t):
    """-> (kind, rows, cols) of a GLSL type name."""
    if t in SCALARS:
        return SCALARS[t], 1, 1
    m = re.fullmatch(r"(i64|u64|[iubd]?)vec([234])", t)
    if m:
        return VEC_PREFIX[m.group(1)], int(m.group(2)), 1
    m = re.fullmatch(r"(d?)mat([234])(?:x([234]))?", t)
    if m:
        cols = int(m.group(2))
        rows = int(m.group(3) or m.group(2))
        return ("f64" if m.group(1) else "f32"), rows, cols
    raise Refused("uniform type %s not adapted" % t)


def size_of(kind):
    return 8 if kind in ("f64", "i64", "u64") else 4


def std430(t):
    """-> (alignment, size, [component byte offsets]) of type t in std430."""
    kind, rows, cols = parse_type(t)
    s = size_of(kind)
    valign = s * (4 if rows == 3 else rows)
    if cols == 1:
        return valign, s * rows, [s * i for i in range(rows)]
    # a matrix: cols column vectors, each aligned as a vector of rows
    offs = [c * valign + s * r for c in range(cols) for r in range(rows)]
    return valign, valign * cols, offs


def encode(kind, text):
    if kind == "f32":
        return struct.pack("<f", float(text))
    if kind == "f64":
        return struct.pack("<d", float(text))
    if kind in ("i32", "b32"):
        v = int(text, 0)
        return struct.pack("<I", v & 0xffffffff)
    if kind == "u32":
        return struct.pack("<I", int(text, 0) & 0xffffffff)
    return struct.pack("<Q", int(text, 0) & 0xffffffffffffffff)


def sections(text):
    out = []
    for line in text.splitlines():
        m = re.match(r"^\[(.*)\]\s*$", line)
        if m:
            out.append([m.group(1), []])
        elif out:
            out[-1][1].append(line)
    return out


def adapt(path, stem):
    text = open(path).read()
    secs = sections(text)
    cs = [s for s in secs if s[0] == "compute shader"]
    others = [s[0] for s in secs if s[0] not in ("require", "compute shader", "test")]
    if others:
        raise Refused("other stages: " + ", ".join(others))
    if len(cs) != 1:
        raise Refused("%d compute shaders linked" % len(cs))
    src = "\n".join(cs[0][1])
    test = [s for s in secs if s[0] == "test"]
    test = test[0][1] if test else []
    for word, why in (("sampler", "samplers"), ("texelFetch", "texel fetches"),
                      ("imageLoad", "image loads"), ("imageAtomic", "image atomics"),
                      ("imageSize", "image queries")):
        if re.search(r"\b" + word, src):
            raise Refused("%s (the harness creates no images: issue 18)" % why)

    # the texture size of "texture rgbw 0 (W, H)"
    tex_w = tex_h = 0
    for line in test:
        m = re.match(r"\s*texture\s+\w+\s+\d+\s+\(\s*(\d+)\s*,\s*(\d+)\s*\)", line)
        if m:
            tex_w, tex_h = int(m.group(1)), int(m.group(2))

    lines = src.split("\n")
    body = []
    exts = []
    uniforms = []   # (type, name)
    image = None
    counters = {}   # name -> word
    counter_next = {}
    ssbo_decls = []
    for line in lines:
        s = line.strip()
        if s.startswith("#version"):
            continue
        m = re.match(r"#extension\s+(\w+)", s)
        if m:
            if m.group(1) not in ("GL_ARB_compute_shader", "GL_ARB_shader_storage_buffer_object",
                                  "GL_ARB_shader_atomic_counters", "GL_ARB_shader_image_load_store"):
                exts.append(s)
            continue
        m = re.match(r"^(?:layout\s*\(([^)]*)\)\s*)?uniform\s+atomic_uint\s+(\w+)\s*;$", s)
        if m:
            lay = m.group(1) or ""
            b = re.search(r"binding\s*=\s*(\d+)", lay)
            o = re.search(r"offset\s*=\s*(\d+)", lay)
            b = int(b.group(1)) if b else 0
            if b != 0:
                raise Refused("atomic counters at binding %d" % b)
            word = int(o.group(1)) // 4 if o else counter_next.get(b, 0)
            counter_next[b] = word + 1
            counters[m.group(2)] = word
            continue
        m = re.match(r"^(?:layout\s*\([^)]*\)\s*)?(?:writeonly\s+)?uniform\s+(?:writeonly\s+)?image2D\s+(\w+)\s*;$", s)
        if m:
            if "writeonly" not in s:
                raise Refused("an image that is read (the harness creates no images: issue 18)")
            image = m.group(1)
            continue
        m = re.match(r"^(?:layout\s*\([^)]*\)\s*)?uniform\s+(\w+)\s+(\w+)\s*;$", s)
        if m:
            uniforms.append((m.group(1), m.group(2)))
            continue
        if re.match(r"^(?:layout\s*\([^)]*\)\s*)?uniform\b", s) and "{" not in s:
            raise Refused("uniform declaration not adapted: " + s)
        body.append(line)

    code = "\n".join(body)
    if image and tex_w == 0:
        raise Refused("an image without a texture size")

    # storage blocks: explicit bindings
    bindings = []  # (kind, info)
    nb = 0
    b_uniforms = b_image = b_raw = b_counters = None
    if uniforms:
        b_uniforms = nb
        nb += 1
    if image:
        b_image = nb
        nb += 1
    raw_type = None
    m = re.search(r"^\s*(\w+)\s+result\s*=[^;]*;", code, re.M)
    if m and image:
        raw_type = m.group(1)
        b_raw = nb
        nb += 1
    if counters:
        b_counters = nb
        nb += 1
    ssbo_map = {}

    def fix_block(mb):
        nonlocal nb
        lay = mb.group(1) or ""
        b = re.search(r"binding\s*=\s*(\d+)", lay)
        b = int(b.group(1)) if b else 0
        if b in ssbo_map:
            raise Refused("two storage blocks at binding %d" % b)
        ssbo_map[b] = nb
        nb += 1
        rest = [q.strip() for q in lay.split(",") if q.strip() and not q.strip().startswith("binding")]
        if not any(q in ("std430", "std140") for q in rest):
            rest.insert(0, "std430")
        return "layout(%s, binding = %d) %sbuffer %s" % (", ".join(rest), ssbo_map[b], mb.group(2) or "",
                                                         mb.group(3))

    code = re.sub(r"(?:layout\s*\(([^)]*)\)\s*)?((?:(?:readonly|writeonly|coherent|restrict|volatile)\s+)*)"
                  r"buffer\s+(\w+)(?=\s*\{)", fix_block, code)
    for name, word in counters.items():
        code = re.sub(r"\b%s\b" % name, "wl_counters[%d]" % word, code)
    code = re.sub(r"\batomicCounterIncrement\s*\(", "wl_ac_inc(", code)
    code = re.sub(r"\batomicCounterDecrement\s*\(", "wl_ac_dec(", code)
    code = re.sub(r"\batomicCounter\s*\(", "wl_ac_read(", code)
    code = re.sub(r"\bmemoryBarrierAtomicCounter\s*\(\s*\)", "memoryBarrierBuffer()", code)
    if image:
        code, n = re.subn(r"\bimageStore\s*\(\s*%s\s*," % image, "wl_image_store(", code)
        if n == 0:
            raise Refused("the image is not stored to")
    if raw_type:
        code = re.sub(r"^(\s*\w+\s+result\s*=[^;]*;)", r"\1\n  wl_raw[gl_LocalInvocationIndex] = result;",
                      code, count=1, flags=re.M)

    head = ["#version 450"] + exts
    if uniforms:
        head.append("layout(std430, binding = %d) readonly buffer WlUniforms {" % b_uniforms)
        head += ["  %s %s;" % u for u in uniforms]
        head.append("};")
    if image:
        head.append("layout(std430, binding = %d) buffer WlImage { vec4 wl_image[]; };" % b_image)
        head.append("void wl_image_store(ivec2 c, vec4 v) {")
        head.append("  if (c.x >= 0 && c.y >= 0 && c.x < %d && c.y < %d) wl_image[c.y * %d + c.x] = v;"
                    % (tex_w, tex_h, tex_w))
        head.append("}")
    if raw_type:
        head.append("layout(std430, binding = %d) buffer WlRaw { %s wl_raw[]; };" % (b_raw, raw_type))
    if counters:
        head.append("layout(std430, binding = %d) coherent buffer WlCounters { uint wl_counters[]; };"
                    % b_counters)
        head.append("#define wl_ac_inc(c) atomicAdd(c, 1u)")
        head.append("#define wl_ac_dec(c) (atomicAdd(c, 0xffffffffu) - 1u)")
        head.append("#define wl_ac_read(c) atomicAdd(c, 0u)")

    # the uniforms' layout
    uoff = {}
    off = 0
    for t, n in uniforms:
        al, sz, offs = std430(t)
        off = (off + al - 1) // al * al
        uoff[n] = (t, off, offs)
        off += sz
    ubytes = (off + 15) // 16 * 16
    ubuf = bytearray(ubytes)

    local = [1, 1, 1]
    mloc = re.search(r"layout\s*\(([^)]*local_size[^)]*)\)\s*in\s*;", code)
    if mloc:
        for axis, i in (("x", 0), ("y", 1), ("z", 2)):
            mm = re.search(r"local_size_%s\s*=\s*(\w+)" % axis, mloc.group(1))
            if mm:
                v = mm.group(1)
                md = re.search(r"#define\s+%s\s+(\d+)u?" % v, code)
                local[i] = int(md.group(1)) if md else int(v, 0)
    invocations = local[0] * local[1] * local[2]

    plan = ["local %d %d %d" % tuple(local)]
    if uniforms:
        plan.append("binding %d uniforms %d" % (b_uniforms, ubytes))
    if image:
        plan.append("binding %d image %d %d" % (b_image, tex_w, tex_h))
    if raw_type:
        kind, rows, cols = parse_type(raw_type)
        al, sz, offs = std430(raw_type)
        stride = (sz + al - 1) // al * al
        exp = uoff.get("expected")
        tol = uoff.get("tolerance")
        exp_off = exp[1] if exp and exp[0] == raw_type else -1
        tol_off = tol[1] if tol and tol[0] == "float" else -1
        plan.append("binding %d raw %d %s %d %d %d %s" % (
            b_raw, stride * invocations, kind, stride, exp_off, tol_off, ",".join(map(str, offs))))
    if counters:
        plan.append("binding %d counters %d" % (b_counters, 4 * max(8, max(counters.values()) + 1)))
    ssbo_sizes = {}
    for line in test:
        s = line.strip()
        m = re.match(r"ssbo\s+(\d+)\s+(\d+)$", s)
        if m:
            ssbo_sizes[int(m.group(1))] = int(m.group(2))
    for pb, ob in sorted(ssbo_map.items(), key=lambda kv: kv[1]):
        if pb not in ssbo_sizes:
            raise Refused("storage block at binding %d without a size" % pb)
        plan.append("binding %d ssbo %d" % (ob, ssbo_sizes[pb]))
    ndispatch = 0
    for line in test:
        s = line.split("#")[0].strip()
        if not s:
            continue
        w = s.split()
        if w[0] in ("clear", "texture", "image", "fb") or s.startswith("atomic counters") or \
                re.match(r"ssbo\s+\d+\s+\d+$", s):
            continue
        if w[0] == "uniform":
            if image and w[2] == image:
                continue
            if w[2] not in uoff:
                raise Refused("a value for the unknown uniform " + w[2])
            t, o, offs = uoff[w[2]]
            kind = parse_type(t)[0]
            vals = w[3:]
            if len(vals) != len(offs):
                raise Refused("uniform %s: %d values for %d components" % (w[2], len(vals), len(offs)))
            for v, co in zip(vals, offs):
                b = encode(kind, v)
                ubuf[o + co:o + co + len(b)] = b
            continue
        m = re.match(r"ssbo\s+(\d+)\s+subdata\s+(\w+)\s+(\d+)\s+(\S+)$", s)
        if m:
            b = ssbo_map.get(int(m.group(1)))
            if b is None:
                raise Refused("ssbo data for binding %s, no block" % m.group(1))
            data = encode(parse_type(m.group(2))[0], m.group(4))
            for i in range(0, len(data), 4):
                plan.append("init %d %d 0x%08x" % (b, int(m.group(3)) + i, struct.unpack("<I", data[i:i + 4])[0]))
            continue
        if w[0] == "compute":
            ndispatch += 1
            plan.append("dispatch %s %s %s" % (w[1], w[2], w[3]))
            if uniforms:
                plan.append("u " + " ".join("%08x" % x for x in struct.unpack("<%dI" % (ubytes // 4), ubuf)))
            continue
        m = re.match(r"probe\s+(rgba?)\s+(\d+)\s+(\d+)\s+(.*)$", s)
        if m:
            v = m.group(4).replace("(", " ").replace(")", " ").replace(",", " ").split()
            if m.group(1) == "rgb":  # piglit reads three values; alpha unchecked
                v = v[:3] + ["nan"]
            plan.append("probe image %s %s %s" % (m.group(2), m.group(3), " ".join(v[:4])))
            continue
        m = re.match(r"probe\s+all\s+(rgba?)\s+(.*)$", s)
        if m:
            v = m.group(2).split()
            if m.group(1) == "rgb":
                v = v[:3] + ["nan"]
            plan.append("probe image -1 -1 %s" % " ".join(v[:4]))
            continue
        m = re.match(r"probe\s+atomic\s+counter\s+(\d+)\s*==\s*(\d+)$", s)
        if m:
            plan.append("probe counter %s %s" % (m.group(1), m.group(2)))
            continue
        raise Refused("test command not adapted: " + s)
    if ndispatch == 0:
        raise Refused("no compute command")
    layout = ",".join(["ssbo"] * nb)
    comp = "// layout: %s\n// adapted from piglit's %s by tests/aco/piglit_cs.py\n" % (layout, path.split("/piglit/")[-1])
    comp += "\n".join(head) + "\n" + code + "\n"
    open(stem + ".comp", "w").write(comp)
    open(stem + ".plan", "w").write("\n".join(plan) + "\n")


def main():
    """piglit_cs.py TEST OUT_STEM, or piglit_cs.py --batch OUT_DIR TEST...
    (one line a test: "NAME: ok" or "NAME: refused: REASON")."""
    if len(sys.argv) >= 3 and sys.argv[1] == "--batch":
        for path in sys.argv[3:]:
            name = path.split("/")[-1].replace(".shader_test", "")
            try:
                adapt(path, sys.argv[2] + "/" + name)
                print("%s: ok" % name)
            except Refused as e:
                print("%s: refused: %s" % (name, e))
            except (OSError, ValueError) as e:
                print("%s: error: %s" % (name, e))
        return 0
    if len(sys.argv) != 3:
        print("usage: piglit_cs.py TEST.shader_test OUT_STEM | --batch OUT_DIR TEST...", file=sys.stderr)
        return 2
    try:
        adapt(sys.argv[1], sys.argv[2])
    except Refused as e:
        print("refused: %s" % e)
        return 3
    except (OSError, ValueError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
