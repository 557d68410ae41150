#include "runner/collect.h"
#include "lib/file.h"

#include <stdlib.h>
#include <string.h>

const struct kb_collector *const kb_collectors[] = {
	&kb_collector_procstat,
	&kb_collector_perf,
	&kb_collector_profile,
	&kb_collector_tasks,	/* last: snapshots closest to fio */
	NULL,
};

int collect_snapshot(const char *from, const char *rdir, const char *name)
{
	char *buf, *to;
	size_t len;
	int ret;

	ret = kb_read_file(from, &buf, &len, 0);
	if (ret)
		return ret;
	to = kb_path_join(rdir, name);
	ret = kb_write_atomic(to, buf, len);
	free(to);
	free(buf);
	return ret;
}

int collectors_stop(struct kb_run_ctx *ctx, struct kb_collect_state *st)
{
	size_t i, n;
	int ret = 0, r;

	for (n = 0; kb_collectors[n]; n++)
		;
	for (i = n; i-- > 0;) {
		if (!st->started[i])
			continue;
		r = kb_collectors[i]->stop(ctx, st->state[i]);
		st->started[i] = 0;
		st->state[i] = NULL;
		if (r && !ret)
			ret = r;
	}
	return ret;
}

int collectors_start(struct kb_run_ctx *ctx, struct kb_collect_state *st)
{
	size_t i;
	int ret;

	memset(st, 0, sizeof(*st));
	for (i = 0; kb_collectors[i] && i < KB_MAX_COLLECTORS; i++) {
		const struct kb_collector *c = kb_collectors[i];

		if (c->enabled && !c->enabled(ctx->cfg))
			continue;
		ret = c->start(ctx, &st->state[i]);
		if (ret) {
			collectors_stop(ctx, st);
			return ret;
		}
		st->started[i] = 1;
	}
	return 0;
}
