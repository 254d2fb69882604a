// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/xen/evtchn: event channels for user space (xenstored,
 * xenconsoled, libxenevtchn).
 *
 * Each open file binds ports of its own (ioctls), and reads, as an
 * array of 32-bit port numbers, the ports that had an event.  A port
 * that had one stays masked until the reader writes its number back:
 * a daemon handles a port's events at its own pace, and a peer cannot
 * flood it.  The queue holds EVTCHN_DEV_QUEUE ports; as each port is
 * queued at most once before it is written back, it overflows only if
 * a file binds more ports than that, which the bind refuses.  Should it
 * overflow all the same, read says so (-EFBIG) until IOCTL_EVTCHN_RESET.
 *
 * Locking: evtchn_file.lock (mutex) orders binding and unbinding;
 * evtchn_file.queue_lock (spinlock, taken in the event handler) the
 * queue.
 */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <asm/xen/hypercall.h>
#include <xen/events.h>
#include <xen/interface/event_channel.h>
#include <xen/xen.h>
#include <uapi/xen/evtchn.h>

#include "evtchn_queue.h"

/**
 * struct evtchn_file - one open /dev/xen/evtchn
 * @lock: see the file comment
 * @ports: the bound ports, as struct evtchn_bound, by port number
 * @nr_bound: how many
 * @restrict_domid: the only domain it may bind to, or DOMID_INVALID
 * @queue_lock: see the file comment
 * @queue: ports that had an event, not read yet
 * @wait: readers and pollers
 */
struct evtchn_file {
	struct mutex lock;	/* see above */
	struct xarray ports;
	unsigned int nr_bound;
	domid_t restrict_domid;
	spinlock_t queue_lock;	/* see above */
	struct evtchn_queue queue;
	wait_queue_head_t wait;
};

/**
 * struct evtchn_bound - a port a file bound
 * @file: the file
 * @port: the port
 * @irq: its irq
 */
struct evtchn_bound {
	struct evtchn_file *file;
	evtchn_port_t port;
	int irq;
};

static irqreturn_t evtchn_dev_event(int irq, void *data)
{
	struct evtchn_bound *b = data;
	struct evtchn_file *f = b->file;
	unsigned long flags;

	spin_lock_irqsave(&f->queue_lock, flags);
	evtchn_queue_push(&f->queue, b->port);
	spin_unlock_irqrestore(&f->queue_lock, flags);
	wake_up_interruptible(&f->wait);
	/* The port stays masked until the reader writes it back. */
	return IRQ_HANDLED;
}

static ssize_t evtchn_dev_read(struct file *file, char __user *buf,
			       size_t len, loff_t *ppos)
{
	struct evtchn_file *f = file->private_data;
	evtchn_port_t out[64];
	unsigned int n;
	int rc;

	len = min_t(size_t, len, sizeof(out)) / sizeof(out[0]);
	if (!len)
		return 0;
	for (;;) {
		spin_lock_irq(&f->queue_lock);
		if (f->queue.overflow) {
			spin_unlock_irq(&f->queue_lock);
			return -EFBIG;
		}
		n = evtchn_queue_pop(&f->queue, out, len);
		spin_unlock_irq(&f->queue_lock);
		if (n)
			break;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		rc = wait_event_interruptible(f->wait,
					      READ_ONCE(f->queue.count) ||
					      READ_ONCE(f->queue.overflow));
		if (rc)
			return rc;
	}
	if (copy_to_user(buf, out, n * sizeof(out[0])))
		return -EFAULT;
	return n * sizeof(out[0]);
}

/* The reader is done with these ports: deliver their next events. */
static ssize_t evtchn_dev_write(struct file *file, const char __user *buf,
				size_t len, loff_t *ppos)
{
	struct evtchn_file *f = file->private_data;
	evtchn_port_t in[64];
	struct evtchn_bound *b;
	unsigned int n, i;

	n = min_t(size_t, len, sizeof(in)) / sizeof(in[0]);
	if (!n)
		return 0;
	if (copy_from_user(in, buf, n * sizeof(in[0])))
		return -EFAULT;
	mutex_lock(&f->lock);
	for (i = 0; i < n; i++) {
		b = xa_load(&f->ports, in[i]);
		if (b)
			xen_irq_lateeoi(b->irq, 0);
	}
	mutex_unlock(&f->lock);
	return n * sizeof(in[0]);
}

/* Give @port, just bound by Xen for this file, an irq; closes it on failure. */
static int evtchn_dev_bind(struct evtchn_file *f, evtchn_port_t port)
{
	struct evtchn_bound *b;
	int rc;

	lockdep_assert_held(&f->lock);
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		xen_evtchn_close(port);
		return -ENOMEM;
	}
	b->file = f;
	b->port = port;
	rc = xa_insert(&f->ports, port, b, GFP_KERNEL);
	if (rc) {
		xen_evtchn_close(port);
		kfree(b);
		return rc;
	}
	b->irq = bind_evtchn_to_irqhandler_lateeoi(port, evtchn_dev_event, 0,
						   "evtchn-user", b);
	if (b->irq < 0) {
		rc = b->irq;
		xa_erase(&f->ports, port);
		xen_evtchn_close(port);
		kfree(b);
		return rc;
	}
	f->nr_bound++;
	return port;
}

static void evtchn_dev_unbind(struct evtchn_file *f, struct evtchn_bound *b)
{
	lockdep_assert_held(&f->lock);
	xa_erase(&f->ports, b->port);
	unbind_from_irqhandler(b->irq, b);
	f->nr_bound--;
	kfree(b);
}

static bool evtchn_dev_allowed(struct evtchn_file *f, domid_t domid)
{
	return f->restrict_domid == DOMID_INVALID || f->restrict_domid == domid;
}

static long evtchn_dev_ioctl_locked(struct evtchn_file *f, unsigned int cmd,
				    void __user *arg)
{
	union {
		struct ioctl_evtchn_bind_virq virq;
		struct ioctl_evtchn_bind_interdomain inter;
		struct ioctl_evtchn_bind_unbound_port unbound;
		struct ioctl_evtchn_unbind unbind;
		struct ioctl_evtchn_notify notify;
		struct ioctl_evtchn_restrict_domid limit;
	} u;
	struct evtchn_bound *b;
	int rc;

	if (_IOC_SIZE(cmd) > sizeof(u))
		return -ENOTTY;
	if (_IOC_SIZE(cmd) && copy_from_user(&u, arg, _IOC_SIZE(cmd)))
		return -EFAULT;
	if ((cmd == IOCTL_EVTCHN_BIND_VIRQ ||
	     cmd == IOCTL_EVTCHN_BIND_INTERDOMAIN ||
	     cmd == IOCTL_EVTCHN_BIND_UNBOUND_PORT) &&
	    f->nr_bound >= EVTCHN_DEV_QUEUE)
		return -ENOSPC;

	switch (cmd) {
	case IOCTL_EVTCHN_BIND_VIRQ: {
		/* A global VIRQ is bound on vCPU 0; per-vCPU ones there too. */
		struct evtchn_bind_virq op = { .virq = u.virq.virq };

		if (f->restrict_domid != DOMID_INVALID)
			return -EACCES;
		rc = HYPERVISOR_event_channel_op(EVTCHNOP_bind_virq, &op);
		return rc ?: evtchn_dev_bind(f, op.port);
	}
	case IOCTL_EVTCHN_BIND_INTERDOMAIN: {
		struct evtchn_bind_interdomain op = {
			.remote_dom = u.inter.remote_domain,
			.remote_port = u.inter.remote_port,
		};

		if (u.inter.remote_domain >= DOMID_FIRST_RESERVED ||
		    !evtchn_dev_allowed(f, u.inter.remote_domain))
			return -EACCES;
		rc = HYPERVISOR_event_channel_op(EVTCHNOP_bind_interdomain,
						 &op);
		return rc ?: evtchn_dev_bind(f, op.local_port);
	}
	case IOCTL_EVTCHN_BIND_UNBOUND_PORT: {
		struct evtchn_alloc_unbound op = {
			.dom = DOMID_SELF,
			.remote_dom = u.unbound.remote_domain,
		};

		if (u.unbound.remote_domain >= DOMID_FIRST_RESERVED ||
		    !evtchn_dev_allowed(f, u.unbound.remote_domain))
			return -EACCES;
		rc = HYPERVISOR_event_channel_op(EVTCHNOP_alloc_unbound, &op);
		return rc ?: evtchn_dev_bind(f, op.port);
	}
	case IOCTL_EVTCHN_UNBIND:
		b = xa_load(&f->ports, u.unbind.port);
		if (!b)
			return -ENOTCONN;
		evtchn_dev_unbind(f, b);
		return 0;
	case IOCTL_EVTCHN_NOTIFY:
		if (!xa_load(&f->ports, u.notify.port))
			return -ENOTCONN;
		notify_remote_via_evtchn(u.notify.port);
		return 0;
	case IOCTL_EVTCHN_RESET:
		spin_lock_irq(&f->queue_lock);
		evtchn_queue_reset(&f->queue);
		spin_unlock_irq(&f->queue_lock);
		return 0;
	case IOCTL_EVTCHN_RESTRICT_DOMID:
		if (f->restrict_domid != DOMID_INVALID)
			return -EACCES;
		if (u.limit.domid >= DOMID_FIRST_RESERVED)
			return -EINVAL;
		f->restrict_domid = u.limit.domid;
		return 0;
	default:
		return -ENOTTY;
	}
}

static long evtchn_dev_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	struct evtchn_file *f = file->private_data;
	long rc;

	mutex_lock(&f->lock);
	rc = evtchn_dev_ioctl_locked(f, cmd, (void __user *)arg);
	mutex_unlock(&f->lock);
	return rc;
}

static __poll_t evtchn_dev_poll(struct file *file, poll_table *wait)
{
	struct evtchn_file *f = file->private_data;
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;

	poll_wait(file, &f->wait, wait);
	if (READ_ONCE(f->queue.count) || READ_ONCE(f->queue.overflow))
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

static int evtchn_dev_open(struct inode *inode, struct file *file)
{
	struct evtchn_file *f = kvzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	xa_init(&f->ports);
	f->restrict_domid = DOMID_INVALID;
	spin_lock_init(&f->queue_lock);
	init_waitqueue_head(&f->wait);
	file->private_data = f;
	return stream_open(inode, file);
}

static int evtchn_dev_release(struct inode *inode, struct file *file)
{
	struct evtchn_file *f = file->private_data;
	struct evtchn_bound *b;
	unsigned long port;

	mutex_lock(&f->lock);
	xa_for_each(&f->ports, port, b)
		evtchn_dev_unbind(f, b);
	mutex_unlock(&f->lock);
	xa_destroy(&f->ports);
	kvfree(f);
	return 0;
}

static const struct file_operations evtchn_dev_fops = {
	.owner		= THIS_MODULE,
	.open		= evtchn_dev_open,
	.release	= evtchn_dev_release,
	.read		= evtchn_dev_read,
	.write		= evtchn_dev_write,
	.unlocked_ioctl	= evtchn_dev_ioctl,
	.poll		= evtchn_dev_poll,
};

static struct miscdevice evtchn_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "xen/evtchn",
	.fops	= &evtchn_dev_fops,
};

static int __init evtchn_dev_init(void)
{
	if (!xen_domain())
		return -ENODEV;
	return misc_register(&evtchn_dev);
}
module_init(evtchn_dev_init);

static void __exit evtchn_dev_exit(void)
{
	misc_deregister(&evtchn_dev);
}
module_exit(evtchn_dev_exit);

MODULE_DESCRIPTION("Xen event channels for user space (/dev/xen/evtchn)");
MODULE_LICENSE("GPL");
