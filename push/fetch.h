/* push/fetch.h - download an artifact (kernel, initrd, modules tarball)
 * by URL into a cache, with libcurl.
 *
 * Used for `kernel = https://...` (and initrd, modules) in kernels.conf
 * by the vm and kexec drivers.
 *
 *  - cache file: CACHE_DIR/<first 16 hex digits of SHA-256(url)>-<the
 *    URL's last path component> (characters other than letters, digits,
 *    '.', '_', '+', '-' become '_'), so two URLs never share a file;
 *  - reused when present (and, when sha256 is given, when it matches: a
 *    cached file that does not match is downloaded again);
 *  - downloaded to <cache file>.part, resumed from its size when a
 *    previous download was interrupted (CURLOPT_RESUME_FROM_LARGE, an
 *    HTTP Range request, RFC 9110 section 14); a server that ignores
 *    ranges gets a download from the start; transient failures (connection
 *    lost, timeout, 5xx) are retried, resuming, up to 3 times;
 *  - verified against sha256 (64 hex digits, any case) before being
 *    renamed into place; a mismatch removes the download;
 *  - progress bar on stderr when stderr is a terminal, else one line when
 *    done.  SHA-256 comes from GNU Nettle (nettle/sha2.h).
 *  - TLS is always verified; credentials from ~/.netrc (CURLOPT_NETRC,
 *    optional), never from the URL's log lines.
 */
#ifndef KB_PUSH_FETCH_H
#define KB_PUSH_FETCH_H

#include <stddef.h>

/* Fetch url (http://, https:// or file://) into cache_dir (created if
 * missing).  sha256_hex: expected SHA-256 in hex, or NULL to skip the
 * check.  *path_out gets the cached file's path (malloc'd) on success.
 * The URL's host gets the ~/.netrc entry naming it (push/http.h
 * push_netrc_auth(): never the 'default' entry).
 * Returns 0; -EINVAL for a bad URL or sha256 string, or a netrc password
 * others than its owner can read; -EBADMSG when the
 * download does not match sha256 (removed); -EREMOTEIO for an HTTP error
 * (404, 403, ...); -EAGAIN when the server stayed unreachable (the .part
 * file is kept for the next try); -errno for local I/O errors.  Messages
 * name the URL and what to do. */
int fetch_url(const char *url, const char *cache_dir, const char *sha256_hex,
	      char **path_out);

/* SHA-256 of the file at path as 64 lowercase hex digits + NUL into hex.
 * 0 or -errno (message printed). */
int fetch_sha256_file(const char *path, char hex[65]);

#endif
