/* tests/test_run_metrics.c - results/run_metrics.c: a run's metrics.json
 * stamped with the run's identity and kernel (the host's members or a vm
 * guest's), the record of a run that could not be done, and the outcome
 * the host reads back after a vm boot (the guest's record, or a failed
 * one written where the guest left none or a bad one). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "results/run_metrics.h"

#define TEST_TMPDIR "/tmp/kbench-test-run-metrics-XXXXXX"
#include "tmpdir.h"
#include "capture.h"

static const struct results_run_ident id = {
	.configuration = "base,NM=0", .job = "randread-4k",
	.iteration = 3, .warmup = 0 };

static void assert_file(const char *path, const char *text)
{
	char *buf = NULL;

	assert_int_equal(kb_read_file(path, &buf, NULL, 0), 0);
	assert_string_equal(buf, text);
	free(buf);
}

static void test_write_host_and_guest(void **state)
{
	char *path = kb_path_join(tmpdir, "metrics.json");
	json_t *rec = json_pack("{s:s, s:{s:i}}", "status", "ok", "metrics",
				"iops", 100);
	struct kb_kexec_run_info kx = { .by_kexec = 1, .boot = 2 };
	struct results_run_kernel k = { .release = "6.1.0",
					.proc_version = "Linux version 6.1.0",
					.kexec = &kx };

	(void)state;
	assert_int_equal(results_metrics_write(path, rec, &id, &k), 0);
	assert_file(path, "{\n  \"configuration\": \"base,NM=0\",\n"
		    "  \"iteration\": 3,\n  \"job\": \"randread-4k\",\n"
		    "  \"kernel_release\": \"6.1.0\",\n"
		    "  \"kexec\": {\n    \"boot\": 2,\n"
		    "    \"build\": null,\n    \"marker\": null\n  },\n"
		    "  \"metrics\": {\n    \"iops\": 100\n  },\n"
		    "  \"proc_version\": \"Linux version 6.1.0\",\n"
		    "  \"status\": \"ok\",\n  \"warmup\": false\n}\n");
	assert_string_equal(results_metrics_status(rec), "ok");
	assert_null(results_metrics_reason(rec));
	results_metrics_free(rec);

	rec = json_pack("{s:s, s:s}", "status", "failed", "reason", "fio");
	k = (struct results_run_kernel){ .guest = 1, .release = "6.2.0" };
	assert_int_equal(results_metrics_write(path, rec, &id, &k), 0);
	assert_file(path, "{\n  \"configuration\": \"base,NM=0\",\n"
		    "  \"guest_kernel\": \"6.2.0\",\n"
		    "  \"iteration\": 3,\n  \"job\": \"randread-4k\",\n"
		    "  \"reason\": \"fio\",\n"
		    "  \"status\": \"failed\",\n  \"warmup\": false\n}\n");
	assert_string_equal(results_metrics_reason(rec), "fio");
	results_metrics_free(rec);
	results_metrics_free(NULL);
	free(path);
}

static const char failed_text[] =
	"{\n  \"configuration\": \"base,NM=0\",\n"
	"  \"iteration\": 3,\n  \"job\": \"randread-4k\",\n"
	"  \"metrics\": {},\n  \"reason\": \"no boot\",\n"
	"  \"status\": \"failed\",\n  \"warmup\": false\n}\n";

static void test_failed_and_outcome(void **state)
{
	char *path = kb_path_join(tmpdir, "m2.json"), *st, *why, *msg;
	struct capture c;

	(void)state;
	assert_int_equal(results_metrics_write_failed(path, &id, "no boot"),
			 0);
	assert_file(path, failed_text);
	unlink(path);

	/* no record from the guest: a failed one is written and given */
	assert_int_equal(results_metrics_outcome(path, &id, "no boot", &st,
						 &why), 0);
	assert_string_equal(st, "failed");
	assert_string_equal(why, "no boot");
	assert_file(path, failed_text);
	free(st);
	free(why);

	/* the guest's record is kept */
	assert_int_equal(kb_write_atomic(path, "{\"status\": \"ok\"}", 16), 0);
	assert_int_equal(results_metrics_outcome(path, &id, "no boot", &st,
						 &why), 0);
	assert_string_equal(st, "ok");
	assert_null(why);
	assert_file(path, "{\"status\": \"ok\"}");
	free(st);

	/* a bad one: its message, then the failed record */
	assert_int_equal(kb_write_atomic(path, "{\"status\": ", 11), 0);
	cap_begin(&c);
	assert_int_equal(results_metrics_outcome(path, &id, "no boot", &st,
						 &why), 0);
	msg = cap_end(&c);
	assert_non_null(strstr(msg, "m2.json"));
	assert_string_equal(st, "failed");
	assert_file(path, failed_text);
	free(st);
	free(why);
	free(msg);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_host_and_guest),
		cmocka_unit_test(test_failed_and_outcome),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
