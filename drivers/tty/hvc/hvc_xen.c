// SPDX-License-Identifier: GPL-2.0
/*
 * Xen console: hvc0 on the PV console ring, and the raw early output.
 *
 * The ring is a page shared with the console backend (xenconsoled in
 * dom0), found through HVM parameters in a PVH guest.  The backend's
 * events (input arrived, output space freed) come as an irq on the
 * console's event channel; without one the hvc layer polls the ring.
 * Output is signalled to the backend with EVTCHNOP_send.  The channel
 * is bound with late EOI: an event after which neither in_prod nor
 * out_cons moved is spurious, so that a backend raising events for
 * nothing is slowed down rather than keeping the CPU in the handler.
 *
 * Trust: the backend writes in_prod and out_cons.  Each is read once per
 * call, and a value that would put more bytes in flight than the ring
 * holds marks the ring broken: one log line, and the console drops
 * output and reads nothing from then on.  Our own indices are kept in
 * private copies, never read back from the page.
 *
 * Locking: xencons.lock serialises users of one ring: hvc's console path
 * and its tty path call in without a common lock.  It is taken with
 * interrupts off, and only tried while an oops is printed, so that a crash
 * in the middle of a write cannot deadlock the console.
 *
 * A full output ring: hvc's console path (printk) drops what put_chars
 * does not take, so put_chars says -EAGAIN instead, and xencons_flush()
 * waits there for the backend to make room; while an oops is printed or
 * the system goes down it waits until the backend has taken everything,
 * so that the last lines are out before the domain stops.  A backend
 * that takes fewer than XENCONS_MIN_BYTES in a second of such waiting
 * (which may span several calls: one that frees a byte now and then
 * would otherwise cost printk a second a byte) is taken for stalled: one
 * log line, and output that does not fit is dropped until the backend
 * catches up (takes all output, or a whole ring's worth), so that a dead
 * or crawling console daemon cannot hang printk.  The tty path keeps
 * what did not fit and retries on the backend's next event.
 *
 * Ordering: a reader reads the index, then (virt_rmb) the data; a writer
 * writes the data, then (virt_wmb) the index.  Freed space is reused only
 * after the consumer's index was read (virt_mb).
 *
 * The raw path (earlyprintk=xen, xen_raw_printk) needs none of this: a
 * guest in an HVM container writes to I/O port 0xe9, which Xen prints as
 * "(dN) ..." when started with guest_loglvl=all; a PV guest uses the
 * console_io hypercall, which Xen honours for dom0.
 */
#include <linux/console.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/pfn.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <asm/xen/page.h>
#include <xen/events.h>
#include <xen/hvc-console.h>
#include <xen/hvm.h>
#include <xen/interface/event_channel.h>
#include <xen/interface/hvm/params.h>
#include <xen/interface/io/console.h>
#include <xen/interface/sched.h>
#include <xen/xen.h>

#include "hvc_console.h"

/**
 * struct xencons - one console ring
 * @lock: serialises the users of the ring
 * @intf: the shared page
 * @evtchn: event channel to the backend
 * @in_cons: our consumer index of the input ring
 * @out_prod: our producer index of the output ring
 * @broken: the backend gave impossible indices; the ring is not used
 * @stalled: the backend was too slow (see the top of this file): output
 *	that does not fit is dropped until it catches up (set by
 *	xencons_flush() without @lock, cleared under it)
 * @stalled_cons: out_cons when the backend was taken for stalled
 * @wait_start: when the console path's current window of waiting began
 * @wait_cons: out_cons then
 * @wait_last: when it last waited (a window goes on across calls that
 *	come within XENCONS_STALL_NS of each other)
 * @ev_in_prod: in_prod as the last event saw it
 * @ev_out_cons: out_cons as the last event saw it
 */
struct xencons {
	spinlock_t lock;	/* serialises the users of the ring */
	struct xencons_interface *intf;
	evtchn_port_t evtchn;
	XENCONS_RING_IDX in_cons;
	XENCONS_RING_IDX out_prod;
	bool broken;
	bool stalled;
	XENCONS_RING_IDX stalled_cons;
	u64 wait_start;
	XENCONS_RING_IDX wait_cons;
	u64 wait_last;
	XENCONS_RING_IDX ev_in_prod;
	XENCONS_RING_IDX ev_out_cons;
};

/*
 * The console path polls a full ring every XENCONS_POLL_US.  A backend
 * that takes fewer than XENCONS_MIN_BYTES over XENCONS_STALL_NS of that
 * waiting is taken for stalled.  Timed by the clock, not by counting
 * polls: a poll yields to Xen, which can take far longer than the delay.
 */
#define XENCONS_STALL_NS	NSEC_PER_SEC
#define XENCONS_MIN_BYTES	256
#define XENCONS_POLL_US		10

/* The domain's console, hvc0: the only ring until secondary consoles. */
static struct xencons xencons0 = {
	.lock = __SPIN_LOCK_UNLOCKED(xencons0.lock),
};

static void xencons_notify(struct xencons *c)
{
	notify_remote_via_evtchn(c->evtchn);
}

static void xencons_mark_broken(struct xencons *c, const char *ring,
				XENCONS_RING_IDX cons, XENCONS_RING_IDX prod)
{
	if (!c->broken)
		pr_err("xen console: backend gave bad %s ring indices (cons %u, prod %u); console disabled\n",
		       ring, cons, prod);
	c->broken = true;
}

static size_t xencons_write(struct xencons *c, const u8 *buf, size_t count)
{
	struct xencons_interface *intf = c->intf;
	XENCONS_RING_IDX cons, prod = c->out_prod;
	size_t sent = 0;

	if (!intf || c->broken)
		return count;	/* nowhere to send it: drop, never block */

	cons = READ_ONCE(intf->out_cons);
	if (prod - cons > sizeof(intf->out)) {
		xencons_mark_broken(c, "output", cons, prod);
		return count;
	}
	/* Caught up: it took all output, or a whole ring since it stalled. */
	if (c->stalled && (cons == prod ||
			   cons - c->stalled_cons >= sizeof(intf->out)))
		c->stalled = false;
	virt_mb();	/* the backend is done with the space before we reuse it */
	while (sent < count && prod - cons < sizeof(intf->out))
		intf->out[MASK_XENCONS_IDX(prod++, intf->out)] = buf[sent++];
	virt_wmb();	/* data before index */
	WRITE_ONCE(intf->out_prod, prod);
	c->out_prod = prod;
	if (sent)
		xencons_notify(c);
	/* A stalled backend: what fitted went, the rest is dropped. */
	return c->stalled ? count : sent;
}

static ssize_t xencons_put_chars(u32 vtermno, const u8 *buf, size_t count)
{
	struct xencons *c = &xencons0;
	unsigned long flags;
	size_t sent;

	if (!oops_in_progress)
		spin_lock_irqsave(&c->lock, flags);
	else if (!spin_trylock_irqsave(&c->lock, flags))
		return 0;	/* an oops interrupted a write: try later */
	sent = xencons_write(c, buf, count);
	spin_unlock_irqrestore(&c->lock, flags);
	/* Ring full: hvc's console path then waits in xencons_flush(). */
	return sent || !count ? sent : -EAGAIN;
}

/* Whether the console path waits until the backend took all output. */
static bool xencons_must_drain(void)
{
	return oops_in_progress || system_state > SYSTEM_RUNNING;
}

/*
 * hvc's flush: @wait is true on its tty path, which may sleep and keeps
 * what did not fit; false on its console path, which cannot sleep and
 * would drop it.  Only the console path waits here, by polling: for room
 * in a full ring, or (xencons_must_drain()) for an empty one.
 */
static int xencons_flush(u32 vtermno, bool wait)
{
	struct xencons *c = &xencons0;
	struct xencons_interface *intf = c->intf;
	XENCONS_RING_IDX cons, prod;
	u64 now;

	if (wait || !intf || READ_ONCE(c->stalled))
		return 0;
	now = local_clock();	/* sched_clock: it runs with interrupts off */
	cons = READ_ONCE(intf->out_cons);
	if (now - c->wait_last > XENCONS_STALL_NS) {
		/* Not waiting of late: a new window. */
		c->wait_start = now;
		c->wait_cons = cons;
	}
	for (;;) {
		cons = READ_ONCE(intf->out_cons);
		prod = READ_ONCE(c->out_prod);
		if (READ_ONCE(c->broken) || prod == cons ||
		    prod - cons > sizeof(intf->out))
			return 0;	/* done, or xencons_write() judges it */
		if (prod - cons < sizeof(intf->out) && !xencons_must_drain())
			return 0;
		now = local_clock();
		c->wait_last = now;
		if (now - c->wait_start >= XENCONS_STALL_NS) {
			if (cons - c->wait_cons < XENCONS_MIN_BYTES)
				break;
			c->wait_start = now;
			c->wait_cons = cons;
		}
		HYPERVISOR_sched_op(SCHEDOP_yield, NULL);
		udelay(XENCONS_POLL_US);
	}
	/*
	 * Without the lock, which an oops may hold: a write that sees the
	 * backend caught up clears the mark again, as it should.
	 */
	WRITE_ONCE(c->stalled_cons, cons);
	WRITE_ONCE(c->stalled, true);
	pr_warn("xen console: backend took only %u bytes in %d s; dropping what does not fit until it catches up\n",
		cons - c->wait_cons, (int)(XENCONS_STALL_NS / NSEC_PER_SEC));
	return 0;
}

static size_t xencons_read(struct xencons *c, u8 *buf, size_t count)
{
	struct xencons_interface *intf = c->intf;
	XENCONS_RING_IDX cons = c->in_cons, prod;
	size_t recv = 0;

	if (!intf || c->broken)
		return 0;

	prod = READ_ONCE(intf->in_prod);
	if (prod - cons > sizeof(intf->in)) {
		xencons_mark_broken(c, "input", cons, prod);
		return 0;
	}
	virt_rmb();	/* index before data */
	while (recv < count && cons != prod)
		buf[recv++] = intf->in[MASK_XENCONS_IDX(cons++, intf->in)];
	virt_mb();	/* data read before the space is handed back */
	WRITE_ONCE(intf->in_cons, cons);
	c->in_cons = cons;
	if (recv)
		xencons_notify(c);
	return recv;
}

static ssize_t xencons_get_chars(u32 vtermno, u8 *buf, size_t count)
{
	struct xencons *c = &xencons0;
	unsigned long flags;
	size_t recv;

	if (!oops_in_progress)
		spin_lock_irqsave(&c->lock, flags);
	else if (!spin_trylock_irqsave(&c->lock, flags))
		return 0;
	recv = xencons_read(c, buf, count);
	spin_unlock_irqrestore(&c->lock, flags);
	return recv;
}

/*
 * The backend's event: hvc polls the ring, as its own handler would, and
 * the late EOI says whether the backend had moved an index since the
 * last event.
 */
static irqreturn_t xencons_interrupt(int irq, void *data)
{
	struct xencons *c = &xencons0;
	XENCONS_RING_IDX in_prod = READ_ONCE(c->intf->in_prod);
	XENCONS_RING_IDX out_cons = READ_ONCE(c->intf->out_cons);
	bool moved = in_prod != c->ev_in_prod || out_cons != c->ev_out_cons;

	c->ev_in_prod = in_prod;
	c->ev_out_cons = out_cons;
	if (hvc_poll(data))
		hvc_kick();
	xen_irq_lateeoi(irq, moved ? 0 : XEN_EOI_FLAG_SPURIOUS);
	return IRQ_HANDLED;
}

/* hvc opens the tty: take the channel's events (0: hvc polls). */
static int xencons_notifier_add(struct hvc_struct *hp, int irq)
{
	int rc;

	if (!irq) {
		hp->irq_requested = 0;
		return 0;
	}
	rc = request_irq(irq, xencons_interrupt, hp->flags, "hvc_console", hp);
	hp->irq_requested = !rc;
	return rc;
}

static void xencons_notifier_del(struct hvc_struct *hp, int irq)
{
	if (!hp->irq_requested)
		return;
	free_irq(irq, hp);
	hp->irq_requested = 0;
}

static const struct hv_ops xencons_ops = {
	.get_chars = xencons_get_chars,
	.put_chars = xencons_put_chars,
	.flush = xencons_flush,
	.notifier_add = xencons_notifier_add,
	.notifier_del = xencons_notifier_del,
	.notifier_hangup = xencons_notifier_del,
};

/* Find and map the ring of a guest in an HVM container. */
static int xencons_setup(struct xencons *c)
{
	u64 pfn, evtchn;

	if (c->intf)
		return 0;
	if (!xen_domain() || xen_initial_domain())
		return -ENODEV;
	if (xen_pv_domain()) {
		/* The builder's page, in the boot area, named by machine frame. */
		unsigned long pfn = mfn_to_pfn(xen_start_info->console.domU.mfn);

		if (pfn == INVALID_P2M_ENTRY)
			return -ENODEV;
		c->intf = pfn_to_kaddr(pfn);
		c->evtchn = xen_start_info->console.domU.evtchn;
		c->in_cons = READ_ONCE(c->intf->in_cons);
		c->out_prod = READ_ONCE(c->intf->out_prod);
		return 0;
	}
	if (hvm_get_parameter(HVM_PARAM_CONSOLE_EVTCHN, &evtchn) ||
	    hvm_get_parameter(HVM_PARAM_CONSOLE_PFN, &pfn) || !pfn)
		return -ENODEV;
	c->intf = memremap(PFN_PHYS(pfn), PAGE_SIZE, MEMREMAP_WB);
	if (!c->intf)
		return -ENOMEM;
	c->evtchn = evtchn;
	c->in_cons = READ_ONCE(c->intf->in_cons);
	c->out_prod = READ_ONCE(c->intf->out_prod);
	return 0;
}

/*
 * Dom0 has no ring: its hvc0 is Xen's own console, written and read
 * through console_io.  Xen takes the whole write (continuing the
 * hypercall itself when it is long).  Input, which Xen hands dom0 when
 * its serial console's focus is on dom0, is polled: nothing here needs
 * it fast.
 */
static ssize_t xencons_dom0_put_chars(u32 vtermno, const u8 *buf,
				      size_t count)
{
	int n = min_t(size_t, count, INT_MAX);
	int rc = HYPERVISOR_console_io(CONSOLEIO_write, n, (char *)buf);

	return rc < 0 ? rc : n;
}

static ssize_t xencons_dom0_get_chars(u32 vtermno, u8 *buf, size_t count)
{
	return HYPERVISOR_console_io(CONSOLEIO_read,
				     min_t(size_t, count, INT_MAX), (char *)buf);
}

static const struct hv_ops xencons_dom0_ops = {
	.get_chars = xencons_dom0_get_chars,
	.put_chars = xencons_dom0_put_chars,
};

/* hvc0 as a console, as early as the kernel takes consoles. */
static int __init xencons_console_init(void)
{
	if (xen_pv_domain() && xen_initial_domain()) {
		hvc_instantiate(0, 0, &xencons_dom0_ops);
		return 0;
	}
	if (xencons_setup(&xencons0))
		return 0;
	hvc_instantiate(0, 0, &xencons_ops);
	return 0;
}
console_initcall(xencons_console_init);

/*
 * hvc0 as a tty, woken by the backend's events.  The port is the
 * toolstack's and stays bound for the life of the domain.
 */
static int __init xencons_tty_init(void)
{
	struct hvc_struct *hp;
	int irq;

	if (xen_pv_domain() && xen_initial_domain()) {
		hp = hvc_alloc(0, 0, &xencons_dom0_ops, 256);
		return PTR_ERR_OR_ZERO(hp);
	}
	if (xencons_setup(&xencons0))
		return 0;
	irq = bind_evtchn_to_irq_lateeoi(xencons0.evtchn);
	if (irq < 0) {
		pr_warn("xen console: no irq for port %u (%d); polling\n",
			xencons0.evtchn, irq);
		irq = 0;
	}
	hp = hvc_alloc(0, irq, &xencons_ops, 256);
	if (IS_ERR(hp)) {
		/* The irq stays: unbinding would close the toolstack's port. */
		pr_err("xen console: hvc0: %ld\n", PTR_ERR(hp));
		return PTR_ERR(hp);
	}
	return 0;
}
device_initcall(xencons_tty_init);

/* Xen's debug port for HVM and PVH guests. */
#define XEN_HVM_DEBUG_PORT	0xe9

/* Yields to Xen, with no byte taken, after which raw output is dropped. */
#define XENCONS_RAW_TRIES	1000

/**
 * xen_raw_console_ring() - give the raw console a PV domU's ring
 * @intf: the console page, mapped
 * @port: its event channel
 *
 * A PV domU's first output goes to its console ring, which xenconsoled
 * logs from the first byte: Xen's own console refuses a domU's writes
 * on a release build.  Called by the PV entry code before any output,
 * on one CPU; hvc0 later takes the same ring over.
 */
void xen_raw_console_ring(struct xencons_interface *intf, evtchn_port_t port)
{
	xencons0.intf = intf;
	xencons0.evtchn = port;
	xencons0.out_prod = READ_ONCE(intf->out_prod);
}

/*
 * Raw output on the ring, as hvc0 writes it (indices checked, a broken
 * ring dropped), waiting for room as long as the backend takes some.
 */
static void xen_raw_ring_write(const char *s, unsigned int len)
{
	unsigned int tries = 0;
	size_t n;

	while (len && tries < XENCONS_RAW_TRIES) {
		n = xencons_write(&xencons0, (const u8 *)s, len);
		s += n;
		len -= n;
		if (n) {
			tries = 0;
		} else {
			HYPERVISOR_sched_op(SCHEDOP_yield, NULL);
			tries++;
		}
	}
}

static void xen_raw_write(const char *s, unsigned int len)
{
	unsigned int i;

	if (xen_pv_domain()) {
		if (xencons0.intf)
			xen_raw_ring_write(s, len);
		else
			HYPERVISOR_console_io(CONSOLEIO_write, len, s);
		return;
	}
	/*
	 * Also before the guest type is known: the PVH entry code prints
	 * its errors before it calls us.
	 */
	for (i = 0; i < len; i++)
		outb(s[i], XEN_HVM_DEBUG_PORT);
}

/**
 * xen_raw_console_write() - write a string to Xen's console, unbuffered
 * @str: NUL-terminated string
 *
 * Usable from the first instruction of a Xen guest, with no locking.
 */
void xen_raw_console_write(const char *str)
{
	xen_raw_write(str, strlen(str));
}

/**
 * xen_raw_printk() - printf to Xen's console, unbuffered
 * @fmt: format
 *
 * Like xen_raw_console_write(); lines longer than 255 bytes are cut.
 * Not reentrant: for early boot and last-resort messages only.
 */
void xen_raw_printk(const char *fmt, ...)
{
	static char buf[256];
	va_list args;

	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	xen_raw_console_write(buf);
}

static void xenboot_write(struct console *con, const char *s, unsigned int n)
{
	xen_raw_write(s, n);
}

struct console xenboot_console = {
	.name	= "xenboot",
	.write	= xenboot_write,
	.flags	= CON_PRINTBUFFER | CON_BOOT | CON_ANYTIME,
	.index	= -1,
};
