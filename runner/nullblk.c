/* runner/nullblk.c - load null_blk for a null_blk target (nullblk.h). */
#include "runner/nullblk.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/kconf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NULLB0 "/dev/nullb0"

int nullblk_load(const char *params)
{
	char *copy = kb_xstrdup(params ? params : ""), *tok, *save = NULL;
	struct kb_argv argv = KB_ARGV_INIT;
	struct kb_spawn_result r;
	int ret = 0, i;

	if (kb_exists(NULLB0))
		goto out;
	if (kb_exists("/sys/module/null_blk")) {
		kb_error("null_blk is loaded but %s does not exist (loaded "
			 "with nr_devices=0?); rmmod null_blk and run again",
			 NULLB0);
		ret = -ENODEV;
		goto out;
	}
	/* "--": modprobe's getopt would take a "-r" after the module
	 * name for an option; the words were checked by kconf too */
	kb_argv_pushl(&argv, "modprobe", "--", "null_blk", NULL);
	for (tok = strtok_r(copy, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (!kconf_module_param_ok(tok)) {
			kb_error("null_blk parameter '%s': expected NAME=VALUE "
				 "(e.g. queue_mode=2); not passed to modprobe",
				 tok);
			ret = -EINVAL;
			goto out;
		}
		kb_argv_push(&argv, tok);
	}
	ret = kb_spawn(argv.v, NULL, &r);
	if (!ret && (!r.exited || r.exit_status)) {
		kb_error("modprobe null_blk %s failed (exit status %d): the "
			 "running kernel needs CONFIG_BLK_DEV_NULL_BLK and root",
			 params ? params : "", r.exited ? r.exit_status : -1);
		ret = -ENODEV;
	}
	for (i = 0; !ret && i < 50 && !kb_exists(NULLB0); i++)
		usleep(100000);
	if (!ret && !kb_exists(NULLB0)) {
		kb_error("null_blk loaded but %s did not appear", NULLB0);
		ret = -ENODEV;
	}
out:
	kb_argv_clear(&argv);
	free(copy);
	return ret;
}
