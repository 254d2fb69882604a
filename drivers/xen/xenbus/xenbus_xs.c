// SPDX-License-Identifier: GPL-2.0
/*
 * The xenstore client API (<xen/xenbus.h>) and watches.
 *
 * Each call builds one request, sends it with xs_send_and_wait() and
 * turns the reply into a result: the payload, or the errno an XS_ERROR
 * reply names.  A reply of the wrong type or shape is -EIO.
 *
 * Watches: registered watches are on xs_watches under xs_watch_lock,
 * each with a token of its own.  An event comes off the ring in the
 * ring's interrupt, in a buffer of its own (xs_watch_event_alloc()), and
 * is sorted there: parsed, matched by its token to a watch, offered to
 * the watch's will_handle filter, then queued, or dropped.  What another
 * domain can make xenstored send must not grow the queue without bound,
 * so each watch has at most one event queued per path (a later one for
 * the same path is covered by the one waiting: callbacks read the
 * current state), and at most XENBUS_WATCH_MAX_PENDING in all: past that, the
 * queued ones are followed by a single event for the watched node
 * itself, which stands for everything below it, and nothing more is
 * queued for the watch until that one is delivered.  The watch thread
 * ("xenwatch") delivers the queue one event at a time, in order, holding
 * xs_watch_mutex, so that a watch being unregistered can wait for a
 * callback in progress (unless it is that callback that unregisters).
 * An event that arrives for a watch already unregistered finds no token
 * and is dropped.
 *
 * Lock order: xs_watch_mutex -> xs_watch_lock (spinlock, taken in the
 * ring's interrupt, so elsewhere with interrupts off; the watches and
 * the queue).  The ring's reader holds its own lock around it.
 */
#include <linux/err.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <xen/xenbus.h>

#include "xenbus.h"
#include "xs_parse.h"

/* ---- requests ---- */

/*
 * Join dir and node as "dir/node"; just dir when node is empty, just node
 * when dir is (a path relative to this domain's home).
 */
static char *xs_join(const char *dir, const char *node)
{
	if (!node || !node[0])
		return kstrdup(dir, GFP_KERNEL);
	if (!dir[0])
		return kstrdup(node, GFP_KERNEL);
	return kasprintf(GFP_KERNEL, "%s/%s", dir, node);
}

/*
 * Send one request.  Return the reply's payload (NUL-terminated; its
 * length in *len if len is not NULL) or an ERR_PTR.
 */
static char *xs_talk(struct xenbus_transaction t, u32 type,
		     const struct kvec *vec, unsigned int nvec,
		     unsigned int *len)
{
	struct xs_request req = {
		.msg = { .type = type, .tx_id = t.id },
		.vec = vec,
		.nvec = nvec,
	};
	int rc;

	INIT_LIST_HEAD(&req.list);
	rc = xs_send_and_wait(&req);
	if (rc)
		return ERR_PTR(rc);

	rc = xs_check_reply(&req.msg, &req.reply);
	if (rc) {
		if (rc > 0)
			rc = xs_errno(req.body, req.reply.len);
		else
			pr_err_ratelimited("xenstore: reply of type %u to a request of type %u\n",
					   req.reply.type, type);
		kfree(req.body);
		return ERR_PTR(rc);
	}
	if (len)
		*len = req.reply.len;
	return req.body;
}

/* A request whose payload is one NUL-terminated string. */
static char *xs_single(struct xenbus_transaction t, u32 type,
		       const char *str, unsigned int *len)
{
	struct kvec vec = { .iov_base = (void *)str, .iov_len = strlen(str) + 1 };

	return xs_talk(t, type, &vec, 1, len);
}

/* A request on dir/node whose reply carries nothing of interest. */
static int xs_path_op(struct xenbus_transaction t, u32 type, const char *dir,
		      const char *node)
{
	char *path = xs_join(dir, node);
	char *reply;

	if (!path)
		return -ENOMEM;
	reply = xs_single(t, type, path, NULL);
	kfree(path);
	if (IS_ERR(reply))
		return PTR_ERR(reply);
	kfree(reply);
	return 0;
}

/**
 * xenbus_directory() - list the children of a node
 * @t: the transaction, or XBT_NIL
 * @dir: the directory
 * @node: the node in it ("" for @dir itself)
 * @num: out: how many children
 *
 * Return: an array of @num names, freed with a single kfree(), or an
 * ERR_PTR.
 */
char **xenbus_directory(struct xenbus_transaction t, const char *dir,
			const char *node, unsigned int *num)
{
	char *path = xs_join(dir, node);
	char *reply, **names, *p;
	unsigned int len, i;
	int n;

	if (!path)
		return ERR_PTR(-ENOMEM);
	reply = xs_single(t, XS_DIRECTORY, path, &len);
	kfree(path);
	if (IS_ERR(reply))
		return ERR_CAST(reply);

	n = xs_count_strings(reply, len);
	if (n < 0) {
		pr_err_ratelimited("xenstore: malformed directory listing\n");
		kfree(reply);
		return ERR_PTR(-EIO);
	}
	/* The pointers and the strings in one allocation. */
	names = kmalloc(n * sizeof(char *) + len, GFP_KERNEL);
	if (!names) {
		kfree(reply);
		return ERR_PTR(-ENOMEM);
	}
	p = memcpy(names + n, reply, len);
	for (i = 0; i < n; i++) {
		names[i] = p;
		p += strlen(p) + 1;
	}
	kfree(reply);
	*num = n;
	return names;
}
EXPORT_SYMBOL_GPL(xenbus_directory);

/**
 * xenbus_exists() - does a node exist
 * @t: the transaction, or XBT_NIL
 * @dir: the directory
 * @node: the node in it
 *
 * Return: 1 if it does, 0 if not.
 */
int xenbus_exists(struct xenbus_transaction t, const char *dir,
		  const char *node)
{
	unsigned int n;
	char **d = xenbus_directory(t, dir, node, &n);

	if (IS_ERR(d))
		return 0;
	kfree(d);
	return 1;
}
EXPORT_SYMBOL_GPL(xenbus_exists);

/**
 * xenbus_read() - read a node's value
 * @t: the transaction, or XBT_NIL
 * @dir: the directory
 * @node: the node in it
 * @len: out, optional: the value's length
 *
 * Return: the value, NUL-terminated, for the caller to kfree(); or an
 * ERR_PTR.
 */
void *xenbus_read(struct xenbus_transaction t, const char *dir,
		  const char *node, unsigned int *len)
{
	char *path = xs_join(dir, node);
	char *value;

	if (!path)
		return ERR_PTR(-ENOMEM);
	value = xs_single(t, XS_READ, path, len);
	kfree(path);
	return value;
}
EXPORT_SYMBOL_GPL(xenbus_read);

/**
 * xenbus_write() - set a node's value, creating the node if needed
 * @t: the transaction, or XBT_NIL
 * @dir: the directory
 * @node: the node in it
 * @string: the value
 *
 * Return: 0 or a negative errno.
 */
int xenbus_write(struct xenbus_transaction t, const char *dir,
		 const char *node, const char *string)
{
	char *path = xs_join(dir, node);
	struct kvec vec[2];
	char *reply;

	if (!path)
		return -ENOMEM;
	vec[0].iov_base = path;
	vec[0].iov_len = strlen(path) + 1;
	vec[1].iov_base = (void *)string;
	vec[1].iov_len = strlen(string);
	reply = xs_talk(t, XS_WRITE, vec, ARRAY_SIZE(vec), NULL);
	kfree(path);
	if (IS_ERR(reply))
		return PTR_ERR(reply);
	kfree(reply);
	return 0;
}
EXPORT_SYMBOL_GPL(xenbus_write);

/**
 * xenbus_mkdir() - create a node with an empty value
 * @t: the transaction, or XBT_NIL
 * @dir: the directory
 * @node: the node in it
 *
 * Return: 0 or a negative errno.
 */
int xenbus_mkdir(struct xenbus_transaction t, const char *dir,
		 const char *node)
{
	return xs_path_op(t, XS_MKDIR, dir, node);
}
EXPORT_SYMBOL_GPL(xenbus_mkdir);

/**
 * xenbus_rm() - remove a node and everything below it
 * @t: the transaction, or XBT_NIL
 * @dir: the directory
 * @node: the node in it
 *
 * Return: 0 or a negative errno.
 */
int xenbus_rm(struct xenbus_transaction t, const char *dir, const char *node)
{
	return xs_path_op(t, XS_RM, dir, node);
}
EXPORT_SYMBOL_GPL(xenbus_rm);

/**
 * xenbus_transaction_start() - start a transaction
 * @t: out: the transaction
 *
 * Return: 0 or a negative errno.
 */
int xenbus_transaction_start(struct xenbus_transaction *t)
{
	char *reply = xs_single(XBT_NIL, XS_TRANSACTION_START, "", NULL);
	int rc;

	if (IS_ERR(reply))
		return PTR_ERR(reply);
	rc = kstrtou32(reply, 10, &t->id);
	kfree(reply);
	if (rc || !t->id) {
		pr_err_ratelimited("xenstore: malformed transaction id\n");
		return -EIO;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(xenbus_transaction_start);

/**
 * xenbus_transaction_end() - commit or abort a transaction
 * @t: the transaction
 * @abort: nonzero to abort it
 *
 * Return: 0; -EAGAIN when it conflicted with another change and the
 * caller should run it again from the start; or another negative errno.
 */
int xenbus_transaction_end(struct xenbus_transaction t, int abort)
{
	char *reply = xs_single(t, XS_TRANSACTION_END, abort ? "F" : "T",
				NULL);

	if (IS_ERR(reply))
		return PTR_ERR(reply);
	kfree(reply);
	return 0;
}
EXPORT_SYMBOL_GPL(xenbus_transaction_end);

/**
 * xenbus_scanf() - read a node and parse it with sscanf()
 * @t: the transaction, or XBT_NIL
 * @dir: the directory
 * @node: the node in it
 * @fmt: the sscanf() format
 *
 * Return: the number of values parsed (at least 1), or a negative errno
 * (-ERANGE when none parsed).
 */
int xenbus_scanf(struct xenbus_transaction t, const char *dir,
		 const char *node, const char *fmt, ...)
{
	va_list ap;
	char *value;
	int n;

	value = xenbus_read(t, dir, node, NULL);
	if (IS_ERR(value))
		return PTR_ERR(value);
	va_start(ap, fmt);
	n = vsscanf(value, fmt, ap);
	va_end(ap);
	kfree(value);
	return n > 0 ? n : -ERANGE;
}
EXPORT_SYMBOL_GPL(xenbus_scanf);

/**
 * xenbus_read_unsigned() - read a node as an unsigned number
 * @dir: the directory
 * @node: the node in it
 * @default_val: the result when the node is missing or not a number
 *
 * Return: the value.
 */
unsigned int xenbus_read_unsigned(const char *dir, const char *node,
				  unsigned int default_val)
{
	unsigned int val;

	if (xenbus_scanf(XBT_NIL, dir, node, "%u", &val) != 1)
		return default_val;
	return val;
}
EXPORT_SYMBOL_GPL(xenbus_read_unsigned);

/**
 * xenbus_printf() - write a node with a printf() format
 * @t: the transaction, or XBT_NIL
 * @dir: the directory
 * @node: the node in it
 * @fmt: the format
 *
 * Return: 0 or a negative errno.
 */
int xenbus_printf(struct xenbus_transaction t, const char *dir,
		  const char *node, const char *fmt, ...)
{
	va_list ap;
	char *value;
	int rc;

	va_start(ap, fmt);
	value = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	if (!value)
		return -ENOMEM;
	rc = xenbus_write(t, dir, node, value);
	kfree(value);
	return rc;
}
EXPORT_SYMBOL_GPL(xenbus_printf);

/**
 * xenbus_gather() - read several nodes of one directory
 * @t: the transaction, or XBT_NIL
 * @dir: the directory
 *
 * Followed by triples (node, sscanf format or NULL, result pointer),
 * ended by a NULL node.  With a NULL format the result is the string,
 * a char ** the caller kfree()s.
 *
 * Return: 0, or the first error (results after it are not set).
 */
int xenbus_gather(struct xenbus_transaction t, const char *dir, ...)
{
	const char *node, *fmt;
	va_list ap;
	char *value;
	void *result;
	int rc = 0;

	va_start(ap, dir);
	while ((node = va_arg(ap, const char *))) {
		fmt = va_arg(ap, const char *);
		result = va_arg(ap, void *);
		value = xenbus_read(t, dir, node, NULL);
		if (IS_ERR(value)) {
			rc = PTR_ERR(value);
			break;
		}
		if (!fmt) {
			*(char **)result = value;
			continue;
		}
		if (sscanf(value, fmt, result) != 1)
			rc = -EINVAL;
		kfree(value);
		if (rc)
			break;
	}
	va_end(ap);
	return rc;
}
EXPORT_SYMBOL_GPL(xenbus_gather);

/* ---- watches ---- */

/**
 * struct xs_watch_event - one event waiting for the watch thread
 * @list: on xs_watch_events
 * @watch: the watch that fired
 * @path: the path that changed, in @body (cut back to the watched node
 *	when it stands for all the events past XENBUS_WATCH_MAX_PENDING)
 * @token: the token it came with, in @body
 * @len: the payload's length
 * @folded: it stands for more events (see the top of this file)
 * @body: the payload as read off the ring, NUL-terminated
 */
struct xs_watch_event {
	struct list_head list;
	struct xenbus_watch *watch;
	char *path;
	const char *token;
	unsigned int len;
	bool folded;
	char body[];
};

static LIST_HEAD(xs_watches);
static LIST_HEAD(xs_watch_events);
static DEFINE_SPINLOCK(xs_watch_lock);
static DEFINE_MUTEX(xs_watch_mutex);
static DECLARE_WAIT_QUEUE_HEAD(xs_watch_wait);
static struct task_struct *xs_watch_task;
static u32 xs_next_token = 1;

static struct xenbus_watch *xs_find_watch(u32 token)
{
	struct xenbus_watch *w;

	list_for_each_entry(w, &xs_watches, list)
		if (w->token == token)
			return w;
	return NULL;
}

/**
 * xs_watch_event_alloc() - room for a watch event's payload
 * @len: the payload's length
 * @gfp: allocation flags
 *
 * Return: a buffer of @len + 1 bytes for xs_watch_event() or
 * xs_watch_event_free(), or NULL.
 */
char *xs_watch_event_alloc(unsigned int len, gfp_t gfp)
{
	struct xs_watch_event *ev = kmalloc(struct_size(ev, body, len + 1),
					    gfp);

	return ev ? ev->body : NULL;
}

/**
 * xs_watch_event_free() - free a buffer of xs_watch_event_alloc()
 * @body: the buffer
 */
void xs_watch_event_free(char *body)
{
	kfree(container_of(body, struct xs_watch_event, body[0]));
}

/* An event for @w's path is queued already; xs_watch_lock held. */
static bool xs_watch_queued(const struct xenbus_watch *w, const char *path)
{
	const struct xs_watch_event *ev;

	if (!w->nr_pending)
		return false;
	list_for_each_entry(ev, &xs_watch_events, list)
		if (ev->watch == w && !strcmp(ev->path, path))
			return true;
	return false;
}

/*
 * Queue @ev for its watch, or fold it (see the top of this file); false
 * when it is dropped.  xs_watch_lock held.
 */
static bool xs_watch_queue(struct xs_watch_event *ev)
{
	struct xenbus_watch *w = ev->watch;
	size_t n = strlen(w->node);

	if (w->overflowed || xs_watch_queued(w, ev->path))
		return false;
	if (w->nr_pending >= XENBUS_WATCH_MAX_PENDING) {
		/* Paths of a watch's events lie below its node. */
		if (strncmp(ev->path, w->node, n))
			return false;
		ev->path[n] = '\0';
		ev->folded = true;
		w->overflowed = true;
		pr_warn_ratelimited("xenstore: watch on %s: over %u events queued; folding them into one\n",
				    w->node, XENBUS_WATCH_MAX_PENDING);
	}
	w->nr_pending++;
	list_add_tail(&ev->list, &xs_watch_events);
	return true;
}

/**
 * xs_watch_event() - a watch event read off the ring
 * @body: its payload, in a buffer of xs_watch_event_alloc(), now ours
 * @len: the payload's length
 *
 * Any context, typically the ring's interrupt: the event is sorted here
 * (see the top of this file) and the watch thread delivers it.
 */
void xs_watch_event(char *body, unsigned int len)
{
	struct xs_watch_event *ev = container_of(body, struct xs_watch_event,
						 body[0]);
	const char *path;
	unsigned long flags;
	bool queued = false;
	u32 id;

	ev->len = len;
	ev->folded = false;
	if (xs_parse_watch_event(ev->body, ev->len, &path, &ev->token) ||
	    kstrtou32(ev->token, 16, &id)) {
		pr_warn_ratelimited("xenstore: malformed watch event dropped\n");
		kfree(ev);
		return;
	}
	ev->path = ev->body + (path - ev->body);
	spin_lock_irqsave(&xs_watch_lock, flags);
	ev->watch = xs_find_watch(id);
	if (ev->watch && (!ev->watch->will_handle ||
			  ev->watch->will_handle(ev->watch, ev->path,
						 ev->token)))
		queued = xs_watch_queue(ev);
	spin_unlock_irqrestore(&xs_watch_lock, flags);
	if (queued)
		wake_up(&xs_watch_wait);
	else
		kfree(ev);
}

static int xs_watch_thread(void *unused)
{
	struct xs_watch_event *ev;

	for (;;) {
		wait_event_interruptible(xs_watch_wait,
					 !list_empty(&xs_watch_events) ||
					 kthread_should_stop());
		if (kthread_should_stop())
			return 0;

		mutex_lock(&xs_watch_mutex);
		spin_lock_irq(&xs_watch_lock);
		ev = list_first_entry_or_null(&xs_watch_events,
					      struct xs_watch_event, list);
		if (ev) {
			list_del(&ev->list);
			ev->watch->nr_pending--;
			if (ev->folded)
				ev->watch->overflowed = false;
		}
		spin_unlock_irq(&xs_watch_lock);
		if (ev)
			ev->watch->callback(ev->watch, ev->path, ev->token);
		mutex_unlock(&xs_watch_mutex);
		kfree(ev);
	}
}

static int xs_watch_request(u32 type, struct xenbus_watch *watch)
{
	char token[12];
	struct kvec vec[2];
	char *reply;

	snprintf(token, sizeof(token), "%x", watch->token);
	vec[0].iov_base = (void *)watch->node;
	vec[0].iov_len = strlen(watch->node) + 1;
	vec[1].iov_base = token;
	vec[1].iov_len = strlen(token) + 1;
	reply = xs_talk(XBT_NIL, type, vec, ARRAY_SIZE(vec), NULL);
	if (IS_ERR(reply))
		return PTR_ERR(reply);
	kfree(reply);
	return 0;
}

/**
 * register_xenbus_watch() - watch a path
 * @watch: the watch, with @node and @callback set
 *
 * Return: 0 or a negative errno.
 */
int register_xenbus_watch(struct xenbus_watch *watch)
{
	int rc;

	watch->nr_pending = 0;
	watch->overflowed = false;
	spin_lock_irq(&xs_watch_lock);
	watch->token = xs_next_token++;
	list_add(&watch->list, &xs_watches);
	spin_unlock_irq(&xs_watch_lock);

	rc = xs_watch_request(XS_WATCH, watch);
	if (rc) {
		spin_lock_irq(&xs_watch_lock);
		list_del(&watch->list);
		spin_unlock_irq(&xs_watch_lock);
	}
	return rc;
}
EXPORT_SYMBOL_GPL(register_xenbus_watch);

/**
 * unregister_xenbus_watch() - stop watching
 * @watch: a registered watch
 *
 * When this returns, @watch's callback is not running (unless the caller
 * is that callback) and will not be called again.
 */
void unregister_xenbus_watch(struct xenbus_watch *watch)
{
	struct xs_watch_event *ev, *tmp;
	LIST_HEAD(dropped);
	int rc;

	spin_lock_irq(&xs_watch_lock);
	list_del(&watch->list);
	spin_unlock_irq(&xs_watch_lock);

	rc = xs_watch_request(XS_UNWATCH, watch);
	if (rc)
		pr_warn("xenstore: unwatching %s: %d\n", watch->node, rc);

	if (current != xs_watch_task)
		mutex_lock(&xs_watch_mutex);
	spin_lock_irq(&xs_watch_lock);
	list_for_each_entry_safe(ev, tmp, &xs_watch_events, list) {
		if (ev->watch == watch) {
			list_move(&ev->list, &dropped);
			watch->nr_pending--;
		}
	}
	watch->overflowed = false;
	spin_unlock_irq(&xs_watch_lock);
	if (current != xs_watch_task)
		mutex_unlock(&xs_watch_mutex);

	list_for_each_entry_safe(ev, tmp, &dropped, list)
		kfree(ev);
}
EXPORT_SYMBOL_GPL(unregister_xenbus_watch);

/**
 * xs_watch_init() - start the watch thread
 *
 * Return: 0 or a negative errno.
 */
int xs_watch_init(void)
{
	struct task_struct *task = kthread_run(xs_watch_thread, NULL,
					       "xenwatch");

	if (IS_ERR(task))
		return PTR_ERR(task);
	xs_watch_task = task;
	return 0;
}
