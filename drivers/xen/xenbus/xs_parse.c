// SPDX-License-Identifier: GPL-2.0
/*
 * Pure logic of the xenstore wire protocol; see xs_parse.h.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "xs_parse.h"

/*
 * The errno names xenstored sends, in its order.  ENOSYS is its word for
 * an unknown request, passed on as it is.
 */
static const struct {
	int err;
	const char *name;
} xs_errors[] = {
	{ EINVAL, "EINVAL" }, { EACCES, "EACCES" }, { EEXIST, "EEXIST" },
	{ EISDIR, "EISDIR" }, { ENOENT, "ENOENT" }, { ENOMEM, "ENOMEM" },
	{ ENOSPC, "ENOSPC" }, { EIO, "EIO" }, { ENOTEMPTY, "ENOTEMPTY" },
	{ ENOSYS, "ENOSYS" }, { EROFS, "EROFS" }, { EBUSY, "EBUSY" },
	{ EAGAIN, "EAGAIN" }, { EISCONN, "EISCONN" }, { E2BIG, "E2BIG" },
	{ EPERM, "EPERM" },
};

/**
 * xs_errno() - the errno an XS_ERROR payload names
 * @name: the payload, an errno name such as "ENOENT", NUL-terminated
 *	or not
 * @len: its length in bytes, the NUL included if there is one
 *
 * Return: the negative errno; -EINVAL for a name xenstore does not use.
 */
int xs_errno(const char *name, unsigned int len)
{
	unsigned int i;

	if (len && !name[len - 1])
		len--;
	for (i = 0; i < ARRAY_SIZE(xs_errors); i++)
		if (strlen(xs_errors[i].name) == len &&
		    !memcmp(xs_errors[i].name, name, len))
			return -xs_errors[i].err;
	return -EINVAL;
}

/**
 * xs_count_strings() - count the NUL-terminated strings of a payload
 * @buf: the payload
 * @len: its length
 *
 * Return: the number of strings, or -EINVAL when the last one lacks its
 * NUL.  An empty payload holds no strings.
 */
int xs_count_strings(const char *buf, unsigned int len)
{
	unsigned int i;
	int n = 0;

	if (len && buf[len - 1])
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!buf[i])
			n++;
	return n;
}

/**
 * xs_parse_watch_event() - split an XS_WATCH_EVENT payload
 * @buf: the payload
 * @len: its length
 * @path: out: the path that changed
 * @token: out: the token of the watch that fired
 *
 * Return: 0, or -EINVAL when the payload is not two or more
 * NUL-terminated strings with a non-empty path.
 */
int xs_parse_watch_event(const char *buf, unsigned int len,
			 const char **path, const char **token)
{
	int n = xs_count_strings(buf, len);

	if (n < 2 || !buf[0])
		return -EINVAL;
	*path = buf;
	*token = buf + strlen(buf) + 1;
	return 0;
}

/**
 * xs_check_reply() - does a reply answer a request
 * @req: the request's header
 * @reply: the reply's header
 *
 * Return: 0 when @reply is of @req's type; 1 when it is XS_ERROR (its
 * payload names the errno); -EIO when it is anything else or longer
 * than xenstore allows.
 */
int xs_check_reply(const struct xsd_sockmsg *req,
		   const struct xsd_sockmsg *reply)
{
	if (reply->len > XENSTORE_PAYLOAD_MAX)
		return -EIO;
	if (reply->type == XS_ERROR)
		return 1;
	return reply->type == req->type ? 0 : -EIO;
}
