/* parsers/fio_jobfile.h - what a fio job file may do to the file it
 * runs against, and beyond it: enough of the job-file format to tell a
 * job that only reads kbench's target from one that may write, trim or
 * delete, do its I/O elsewhere, or run a command.
 *
 * Format: fio HOWTO, section "Job file format": lines; ';' or '#' start
 * a comment (a whole line; fio also strips them after an option); "[NAME]"
 * starts a job section ("[global]" the defaults); "KEY=VALUE" or "KEY" a
 * parameter, spaces around '=' allowed; "include FILE" reads another
 * job file.  Options (HOWTO "I/O type", "Target file/device"):
 * rw/readwrite (default read; "read" and "randread", with an optional
 * ":N" offset modifier, only read), unlink and unlink_each_loop (delete
 * the file when the job is done), ioengine=filecreate/filedelete/
 * filestat... (file operations; only filestat reads).  Where fio does
 * its I/O (HOWTO "Target file/device": filename, directory, opendir,
 * filename_format) and what it does beyond (exec_prerun, ioscheduler,
 * write_*_log, ioengine=exec/external, replay_redirect).
 */
#ifndef KB_FIO_JOBFILE_H
#define KB_FIO_JOBFILE_H

#include <stddef.h>

/* What a job file does beyond reading ${KBENCH_TARGET}: each field the
 * first option of its kind as "line N: KEY=VALUE (why)" (malloc'd), or
 * NULL.  An `include` counts as writes, elsewhere and outside (kbench
 * does not read it). */
struct fio_jobfile_scan {
	char *writes;	 /* may change or delete its files: rw= other than
			  * read/randread, unlink=, a file ioengine, or
			  * such a value fio takes from the environment */
	char *elsewhere; /* does its I/O on other files than the target:
			  * filename= with any file but ${KBENCH_TARGET} or
			  * ${KBENCH_TARGET_N}, directory=, opendir=,
			  * filename_format= */
	char *outside;	 /* acts beyond its I/O: exec_prerun/exec_postrun
			  * (a shell command), ioengine=exec/external/a path
			  * (a program or library), ioscheduler= (switches
			  * the device's scheduler, not back), write_iolog=
			  * and write_{bw,lat,iops,hist}_log= (files it
			  * names), read_iolog= (replayed writes),
			  * replay_redirect= (another device); and what
			  * kbench cannot read as fio does: an option name
			  * set from the environment, a NUL byte, a line
			  * longer than fio's 8191-byte buffer */
	char *unnamed;	 /* "job [k] has no filename=" (nor [global]),
			  * one that may write: fio makes k.0.0 in the
			  * current directory */
	int names_target; /* 1 when a filename= is ${KBENCH_TARGET} */
	/* the largest literal runtime= (alias timeout=) and ramp_time= in
	 * seconds (HOWTO "Time related parameters": a number with an
	 * optional unit d, h, m, s, ms, us; none is seconds), -1 when none
	 * is given, or when every one is set when fio runs ('$'); *_at:
	 * "line N: runtime=600" of that one (malloc'd) or NULL */
	double runtime_s, ramp_s, startdelay_s;
	char *runtime_at, *ramp_at, *startdelay_at;
	int time_based;	  /* 1 when a time_based is on (runs last runtime=) */
};

/* 1 when kbench does not run the job file s describes: it acts
 * beyond its I/O (outside), or may write and does its I/O elsewhere
 * than ${KBENCH_TARGET} (elsewhere, unnamed). */
int fio_jobfile_refused(const struct fio_jobfile_scan *s);

/* Scan text (NUL-terminated); free with fio_jobfile_scan_free(). */
void fio_jobfile_scan(const char *text, struct fio_jobfile_scan *s);

/* The same on text[0..len) (a NUL byte in it is outside), with each
 * ${NAME} of a line replaced first, as fio does (options.c
 * fio_option_dup_subs()), by lookup(NAME, ctx) where it returns a value
 * ("" for an unset one, as fio; lookup NULL, or NULL returned: kept,
 * and checked as "set when fio runs"); ${KBENCH_TARGET...} is always
 * kept (filename=).  Read as fio's init.c reads a line: cut at its
 * first ';' or '#'; a section named global... holds the defaults; a
 * line starting with "include" includes.  Options off kbench's list
 * (allowed_opts in fio_jobfile.c: I/O on the target, timing, reporting)
 * are outside, so are an ioengine off its list, mem=TYPE:FILE, fio's
 * $ncpus/$pagesize/$mb_memory (bc through a shell), a control
 * character, a job name with '/'. */
void fio_jobfile_scan_env(const char *text, size_t len,
			  const char *(*lookup)(const char *name, void *ctx),
			  void *ctx, struct fio_jobfile_scan *s);
void fio_jobfile_scan_free(struct fio_jobfile_scan *s);

/* fio_jobfile_scan()'s writes: 0 when every job of the job file text
 * only reads its files; 1 when one may change or delete them, with *why (malloc'd) saying which line
 * and option: "line 12: rw=randwrite", "line 3: unlink=1", "line 2:
 * include other.fio (a file kbench does not read)", "line 7:
 * rw=${KBENCH_RW} (set when fio runs)".  A value fio takes from the
 * environment or another file is counted as a write (kbench cannot see
 * it).  text is NUL-terminated. */
int fio_jobfile_writes(const char *text, char **why);

#endif
