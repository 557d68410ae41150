/* parsers/fio_jobfile.h - what a fio job file may do to the file it
 * runs against: enough of the job-file format to tell a job that only
 * reads from one that may write, trim or delete.
 *
 * Format: fio HOWTO, section "Job file format": lines; ';' or '#' start
 * a comment (a whole line; fio also strips them after an option); "[NAME]"
 * starts a job section ("[global]" the defaults); "KEY=VALUE" or "KEY" a
 * parameter, spaces around '=' allowed; "include FILE" reads another
 * job file.  Options (HOWTO "I/O type", "Target file/device"):
 * rw/readwrite (default read; "read" and "randread", with an optional
 * ":N" offset modifier, only read), unlink and unlink_each_loop (delete
 * the file when the job is done), ioengine=filecreate/filedelete/
 * filestat... (file operations; only filestat reads).
 */
#ifndef KB_FIO_JOBFILE_H
#define KB_FIO_JOBFILE_H

/* 0 when every job of the job file text only reads its files; 1 when
 * one may change or delete them, with *why (malloc'd) saying which line
 * and option: "line 12: rw=randwrite", "line 3: unlink=1", "line 2:
 * include other.fio (a file kbench does not read)", "line 7:
 * rw=${KBENCH_RW} (set when fio runs)".  A value fio takes from the
 * environment or another file is counted as a write (kbench cannot see
 * it).  text is NUL-terminated. */
int fio_jobfile_writes(const char *text, char **why);

#endif
