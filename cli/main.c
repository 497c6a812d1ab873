/* wavelift: the command-line program.
 *
 *   wavelift dis  [--mcpu gfx1030] [--wave32|--wave64] [--kernel NAME]
 *                 [--asm-only] [--raw] FILE                      (cmd_dis.c)
 *   wavelift lift CODE_OBJECT --kernel NAME [...] -o OUT.spv     (cmd_lift.c)
 *   wavelift run  CODE_OBJECT --kernel NAME --global .. --local .. [...]
 *                                                                (cmd_run.c)
 *   wavelift replay CAPTURE [--model M] [--both] [...]           (cmd_replay.c)
 *   wavelift size INPUT... [--svg FILE] [...]                    (cmd_batch.c)
 *
 * The options are one table (options.c): each subcommand parses with it,
 * and --help is written from it.
 *
 * Exit status: 0 success, 1 bad input (a message says what and where),
 * 2 usage error, 3 (lift, run) the program or its result was refused by
 * name (an instruction not translated, an escape recorded at run time). */
#include "options.h"

#include "wavelift.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("no command", NULL);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        cli_print_help(-1);
        return 0;
    }
    if (strcmp(argv[1], "--man") == 0) {
        cli_print_man();
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("wavelift %s (LLVM %s)\n", wl_version(), wl_llvm_version());
        return 0;
    }
    static int (*const run_cmd[CLI_NCMDS])(cli_options *) = {
        [CLI_DIS] = cmd_dis, [CLI_LIFT] = cmd_lift, [CLI_RUN] = cmd_run, [CLI_REPLAY] = cmd_replay, [CLI_SIZE] = cmd_size};
    int c = cli_cmd_find(argv[1]);
    if (c < 0)
        return cli_usage_error("unknown command", argv[1]);
    cli_options *o = malloc(sizeof(*o)); /* large: run's --arg and --out */
    if (!o)
        return EXIT_BAD_INPUT;
    int rc = cli_parse_options((cli_cmd)c, argc - 2, argv + 2, o);
    if (rc == -1) /* --help */
        rc = 0;
    else if (rc == 0)
        rc = run_cmd[c](o);
    free(o);
    return rc;
}
