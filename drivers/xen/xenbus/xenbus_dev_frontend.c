// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/xen/xenbus: xenstore for user space (xenstore-read and friends,
 * libxenstore in a guest).
 *
 * User space writes whole xenstore messages and reads the replies, in
 * the wire format of xs_wire.h.  Each open file is a connection of its
 * own.  A request is sent as ours (with our req_id) and its reply queued
 * to the file with the caller's req_id put back.  XS_WATCH and
 * XS_UNWATCH become kernel watches whose events are queued as
 * XS_WATCH_EVENT messages with the caller's token.  Transactions the
 * caller leaves open are aborted on close.
 *
 * Trust: user space is not trusted either: a message longer than the
 * protocol allows, or of a type no client may send, is refused with
 * -EINVAL and the partial message dropped.
 *
 * Locking: xb_file.lock (mutex) serialises writers and the file's watch
 * and transaction lists; xb_file.queue_lock (spinlock) the read queue,
 * which watch callbacks also fill.
 */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <xen/xenbus.h>
#include <xen/xen.h>

#include "xenbus.h"
#include "xs_parse.h"

/**
 * struct xb_msg - a message waiting to be read
 * @list: on xb_file.queue
 * @len: bytes in @data
 * @data: header and payload
 */
struct xb_msg {
	struct list_head list;
	unsigned int len;
	u8 data[];
};

/**
 * struct xb_watch - a watch user space registered
 * @list: on xb_file.watches
 * @watch: the kernel watch
 * @file: the file its events go to
 * @token: the caller's token
 */
struct xb_watch {
	struct list_head list;
	struct xenbus_watch watch;
	struct xb_file *file;
	char *token;
};

/**
 * struct xb_tx - a transaction user space started
 * @list: on xb_file.transactions
 * @id: its id
 */
struct xb_tx {
	struct list_head list;
	u32 id;
};

/**
 * struct xb_file - one open /dev/xen/xenbus
 * @lock: serialises writers, @watches and @transactions
 * @wbuf: the message being written
 * @wlen: bytes of it so far
 * @queue_lock: protects @queue and @read_off
 * @queue: messages to read
 * @read_off: bytes of the first message already read
 * @read_wait: readers wait here
 * @watches: the file's watches
 * @transactions: the file's open transactions
 */
struct xb_file {
	struct mutex lock;	/* writers, watches, transactions */
	u8 wbuf[sizeof(struct xsd_sockmsg) + XENSTORE_PAYLOAD_MAX];
	unsigned int wlen;
	spinlock_t queue_lock;	/* the read queue */
	struct list_head queue;
	unsigned int read_off;
	wait_queue_head_t read_wait;
	struct list_head watches;
	struct list_head transactions;
};

static int xb_queue(struct xb_file *f, u32 type, u32 req_id, u32 tx_id,
		    const void *a, unsigned int alen,
		    const void *b, unsigned int blen)
{
	struct xsd_sockmsg hdr = {
		.type = type, .req_id = req_id, .tx_id = tx_id,
		.len = alen + blen,
	};
	struct xb_msg *m = kmalloc(struct_size(m, data, sizeof(hdr) + hdr.len),
				   GFP_KERNEL);

	if (!m)
		return -ENOMEM;
	m->len = sizeof(hdr) + hdr.len;
	memcpy(m->data, &hdr, sizeof(hdr));
	memcpy(m->data + sizeof(hdr), a, alen);
	memcpy(m->data + sizeof(hdr) + alen, b, blen);
	spin_lock(&f->queue_lock);
	list_add_tail(&m->list, &f->queue);
	spin_unlock(&f->queue_lock);
	wake_up(&f->read_wait);
	return 0;
}

static int xb_queue_ok(struct xb_file *f, const struct xsd_sockmsg *req)
{
	return xb_queue(f, req->type, req->req_id, req->tx_id, "OK", 3, NULL, 0);
}

static int xb_queue_error(struct xb_file *f, const struct xsd_sockmsg *req,
			  const char *name)
{
	return xb_queue(f, XS_ERROR, req->req_id, req->tx_id, name,
			strlen(name) + 1, NULL, 0);
}

static void xb_watch_fired(struct xenbus_watch *watch, const char *path,
			   const char *token)
{
	struct xb_watch *w = container_of(watch, struct xb_watch, watch);

	/* Dropped if memory is short, as xenstored itself may do. */
	xb_queue(w->file, XS_WATCH_EVENT, 0, 0, path, strlen(path) + 1,
		 w->token, strlen(w->token) + 1);
}

static void xb_watch_free(struct xb_watch *w)
{
	kfree(w->watch.node);
	kfree(w->token);
	kfree(w);
}

static int xb_watch(struct xb_file *f, const struct xsd_sockmsg *req,
		    const char *body, bool add)
{
	const char *path, *token;
	struct xb_watch *w;
	int rc;

	if (xs_parse_watch_event(body, req->len, &path, &token))
		return xb_queue_error(f, req, "EINVAL");

	if (!add) {
		list_for_each_entry(w, &f->watches, list) {
			if (!strcmp(w->watch.node, path) &&
			    !strcmp(w->token, token)) {
				list_del(&w->list);
				unregister_xenbus_watch(&w->watch);
				xb_watch_free(w);
				return xb_queue_ok(f, req);
			}
		}
		return xb_queue_error(f, req, "ENOENT");
	}

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->watch.node = kstrdup(path, GFP_KERNEL);
	w->token = kstrdup(token, GFP_KERNEL);
	w->watch.callback = xb_watch_fired;
	w->file = f;
	if (!w->watch.node || !w->token) {
		xb_watch_free(w);
		return -ENOMEM;
	}
	rc = register_xenbus_watch(&w->watch);
	if (rc) {
		xb_watch_free(w);
		return xb_queue_error(f, req, rc == -EACCES ? "EACCES" :
				      rc == -ENOENT ? "ENOENT" : "EINVAL");
	}
	list_add(&w->list, &f->watches);
	return xb_queue_ok(f, req);
}

/* Forward a request to xenstored and queue its reply. */
static int xb_forward(struct xb_file *f, const struct xsd_sockmsg *req,
		      const char *body)
{
	struct kvec vec = { .iov_base = (void *)body, .iov_len = req->len };
	struct xs_request r = {
		.msg = { .type = req->type, .tx_id = req->tx_id },
		.vec = &vec,
		.nvec = 1,
	};
	struct xb_tx *tx, *tmp;
	int rc;

	INIT_LIST_HEAD(&r.list);
	rc = xs_send_and_wait(&r);
	if (rc)
		return rc;

	if (r.reply.type == XS_TRANSACTION_START) {
		tx = kmalloc(sizeof(*tx), GFP_KERNEL);
		if (tx && !kstrtou32(r.body, 10, &tx->id))
			list_add(&tx->list, &f->transactions);
		else
			kfree(tx);
	} else if (r.reply.type == XS_TRANSACTION_END) {
		list_for_each_entry_safe(tx, tmp, &f->transactions, list) {
			if (tx->id == req->tx_id) {
				list_del(&tx->list);
				kfree(tx);
			}
		}
	}
	rc = xb_queue(f, r.reply.type, req->req_id, req->tx_id, r.body,
		      r.reply.len, NULL, 0);
	kfree(r.body);
	return rc;
}

static int xb_process(struct xb_file *f)
{
	struct xsd_sockmsg req;
	char *body = (char *)f->wbuf + sizeof(req);

	memcpy(&req, f->wbuf, sizeof(req));
	switch (req.type) {
	case XS_WATCH:
		return xb_watch(f, &req, body, true);
	case XS_UNWATCH:
		return xb_watch(f, &req, body, false);
	case XS_DIRECTORY:
	case XS_READ:
	case XS_GET_PERMS:
	case XS_TRANSACTION_START:
	case XS_TRANSACTION_END:
	case XS_GET_DOMAIN_PATH:
	case XS_WRITE:
	case XS_MKDIR:
	case XS_RM:
	case XS_SET_PERMS:
	case XS_IS_DOMAIN_INTRODUCED:
	case XS_DIRECTORY_PART:
	case XS_CONTROL:
	case XS_INTRODUCE:
	case XS_RELEASE:
	case XS_RESUME:
	case XS_SET_TARGET:
	case XS_RESET_WATCHES:
		return xb_forward(f, &req, body);
	default:
		return -EINVAL;
	}
}

static ssize_t xb_write(struct file *filp, const char __user *ubuf,
			size_t len, loff_t *ppos)
{
	struct xb_file *f = filp->private_data;
	struct xsd_sockmsg *hdr = (struct xsd_sockmsg *)f->wbuf;
	size_t done = 0, n;
	int rc = 0;

	mutex_lock(&f->lock);
	for (;;) {
		unsigned int want = sizeof(*hdr);

		if (f->wlen >= sizeof(*hdr)) {
			if (hdr->len > XENSTORE_PAYLOAD_MAX) {
				rc = -EINVAL;
				break;
			}
			want += hdr->len;
			if (f->wlen == want) {
				rc = xb_process(f);
				f->wlen = 0;
				if (rc)
					break;
				continue;
			}
		}
		if (done == len)
			break;
		n = min_t(size_t, len - done, want - f->wlen);
		if (copy_from_user(f->wbuf + f->wlen, ubuf + done, n)) {
			rc = -EFAULT;
			break;
		}
		f->wlen += n;
		done += n;
	}
	if (rc)
		f->wlen = 0;
	mutex_unlock(&f->lock);
	return rc ? rc : done;
}

static ssize_t xb_read(struct file *filp, char __user *ubuf, size_t len,
		       loff_t *ppos)
{
	struct xb_file *f = filp->private_data;
	struct xb_msg *m;
	size_t done = 0, n;
	int rc;

	rc = wait_event_interruptible(f->read_wait,
				      !list_empty(&f->queue) ||
				      (filp->f_flags & O_NONBLOCK));
	if (rc)
		return rc;

	spin_lock(&f->queue_lock);
	while (done < len && !list_empty(&f->queue)) {
		m = list_first_entry(&f->queue, struct xb_msg, list);
		n = min_t(size_t, len - done, m->len - f->read_off);
		spin_unlock(&f->queue_lock);
		/* Only this reader takes messages off; they stay put. */
		if (copy_to_user(ubuf + done, m->data + f->read_off, n))
			return done ? done : -EFAULT;
		spin_lock(&f->queue_lock);
		done += n;
		f->read_off += n;
		if (f->read_off == m->len) {
			list_del(&m->list);
			kfree(m);
			f->read_off = 0;
		}
	}
	spin_unlock(&f->queue_lock);
	return done ? done : -EAGAIN;
}

static __poll_t xb_poll(struct file *filp, poll_table *wait)
{
	struct xb_file *f = filp->private_data;

	poll_wait(filp, &f->read_wait, wait);
	return EPOLLOUT | EPOLLWRNORM |
	       (list_empty(&f->queue) ? 0 : EPOLLIN | EPOLLRDNORM);
}

static int xb_open(struct inode *inode, struct file *filp)
{
	struct xb_file *f;

	if (!xenbus_ready())
		return -ENODEV;
	f = kvzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	spin_lock_init(&f->queue_lock);
	INIT_LIST_HEAD(&f->queue);
	init_waitqueue_head(&f->read_wait);
	INIT_LIST_HEAD(&f->watches);
	INIT_LIST_HEAD(&f->transactions);
	filp->private_data = f;
	return stream_open(inode, filp);
}

static int xb_release(struct inode *inode, struct file *filp)
{
	struct xb_file *f = filp->private_data;
	struct xb_watch *w, *wt;
	struct xb_tx *tx, *tt;
	struct xb_msg *m, *mt;

	list_for_each_entry_safe(w, wt, &f->watches, list) {
		unregister_xenbus_watch(&w->watch);
		xb_watch_free(w);
	}
	list_for_each_entry_safe(tx, tt, &f->transactions, list) {
		xenbus_transaction_end((struct xenbus_transaction){ tx->id }, 1);
		kfree(tx);
	}
	list_for_each_entry_safe(m, mt, &f->queue, list)
		kfree(m);
	kvfree(f);
	return 0;
}

/* Also the "xenbus" file of xenfs. */
const struct file_operations xen_xenbus_fops = {
	.owner = THIS_MODULE,
	.open = xb_open,
	.release = xb_release,
	.read = xb_read,
	.write = xb_write,
	.poll = xb_poll,
};
EXPORT_SYMBOL_GPL(xen_xenbus_fops);

static struct miscdevice xb_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "xen/xenbus",
	.fops = &xen_xenbus_fops,
};

static int __init xb_dev_init(void)
{
	if (!xen_domain())
		return 0;
	return misc_register(&xb_dev);
}
device_initcall(xb_dev_init);
