/* runner/nullblk.h - the null_blk target (target = null_blk: PARAMS), the
 * device of seed 002 (Documentation/block/null_blk.rst: queue_mode,
 * irqmode, completion_nsec, bs, ... are module parameters).
 */
#ifndef KB_NULLBLK_H
#define KB_NULLBLK_H

/* Make sure /dev/nullb0 exists: if not, `modprobe null_blk PARAMS`
 * (PARAMS split on blanks) and wait up to 5 s for the device node.  In a
 * vm guest the initramfs has already loaded it with the same PARAMS.
 * 0 or -errno with a message. */
int nullblk_load(const char *params);

#endif
