// SPDX-License-Identifier: GPL-2.0
/*
 * Event channel core: binds Xen event channels to Linux irqs.
 *
 * Each bound port gets an irq of its own and a struct evtchn_irq.  A port
 * is one of three kinds: a port a driver got elsewhere (interdomain or
 * unbound; it may move between CPUs), a virtual IRQ of one vCPU, or an
 * IPI to one vCPU (those two stay on their CPU).  The upcall finds
 * pending ports through the ABI ops (2-level or FIFO) and calls
 * xen_evtchn_handle_port(), which looks the port up and runs its irq.
 *
 * A port is delivered only when nothing wants it masked.  The reasons
 * are kept apart (EVTCHN_MASKED_*), so the irq core's disable, a late
 * EOI still owed by a driver and a move between CPUs cannot undo one
 * another.  Ports bound with lateeoi stay masked from the moment an
 * event is taken until the driver calls xen_irq_lateeoi(): a peer that
 * floods a port cannot keep a CPU in interrupt context, and one whose
 * events keep turning out spurious has them delayed, up to a second.
 *
 * A port that may move goes, when the irq core sets its affinity, to the
 * allowed CPU with the fewest such ports, and stays where it is unless
 * another CPU has at least two fewer: the queues of a device (and
 * several devices) spread over the CPUs instead of all landing on CPU 0,
 * and setting the same affinity again moves nothing.
 *
 * Lock order: evtchn_bind_lock (mutex; binding and unbinding) ->
 * irq descriptor lock -> evtchn_irq.lock (raw; the mask reasons).
 * The port table is written under evtchn_bind_lock and read under RCU:
 * the upcall runs with interrupts off, so synchronize_rcu() after a
 * port leaves the table means no CPU still uses its entry.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <asm/xen/hypercall.h>
#include <asm/xen/hypervisor.h>
#include <xen/events.h>
#include <xen/interface/physdev.h>
#include <xen/interface/sched.h>
#include <xen/xenbus.h>
#include <xen/xen-ops.h>
#include <xen/xen.h>

#include "events_internal.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "xen."

static bool fifo_events = true;
module_param(fifo_events, bool, 0444);
MODULE_PARM_DESC(fifo_events,
		 "Use the FIFO event channel ABI when Xen offers it (default: yes)");

enum evtchn_kind {
	EVTCHN_KIND_PORT,
	EVTCHN_KIND_VIRQ,
	EVTCHN_KIND_IPI,
	EVTCHN_KIND_PIRQ,
};

/* Why a port is masked; it is delivered only when none applies. */
#define EVTCHN_MASKED_CORE	BIT(0)	/* irq core: disabled or shut down */
#define EVTCHN_MASKED_EOI	BIT(1)	/* a late EOI is owed */
#define EVTCHN_MASKED_MOVE	BIT(2)	/* being moved or retriggered */

/* Spurious late EOIs in a row before the next unmask is delayed. */
#define EVTCHN_SPURIOUS_FREE	2
#define EVTCHN_SPURIOUS_MAX_MS	1000

/**
 * struct evtchn_irq - one bound port
 * @irq: its Linux irq
 * @port: the port
 * @kind: how it was bound
 * @index: the VIRQ, IPI or physical IRQ (pirq) number, for those kinds
 * @cpu: the CPU its events arrive on
 * @lateeoi: the driver acknowledges events with xen_irq_lateeoi()
 * @level: a level-triggered pirq: Xen holds the line until PHYSDEVOP_eoi
 * @eoi_on_ack: an edge pirq (an MSI without masking) Xen also holds
 *	until PHYSDEVOP_eoi, sent when its event is taken
 * @lock: protects @masked
 * @masked: EVTCHN_MASKED_* reasons in force
 * @spurious: spurious late EOIs in a row
 * @eoi_work: delayed unmask after spurious events
 */
struct evtchn_irq {
	unsigned int irq;
	evtchn_port_t port;
	enum evtchn_kind kind;
	unsigned int index;
	unsigned int cpu;
	bool lateeoi;
	bool level;
	bool eoi_on_ack;
	raw_spinlock_t lock;
	u8 masked;
	unsigned int spurious;
	struct delayed_work eoi_work;
};

static const struct evtchn_ops *evtchn_ops;
static DEFINE_MUTEX(evtchn_bind_lock);

/* Port table: rows of pointers, allocated as ports appear. */
#define EVTCHN_ROW_SIZE		(PAGE_SIZE / sizeof(void *))
#define EVTCHN_ROWS		(EVTCHN_FIFO_NR_CHANNELS / EVTCHN_ROW_SIZE)
static struct evtchn_irq __rcu **evtchn_table[EVTCHN_ROWS];

/* Ports of kind EVTCHN_KIND_PORT bound to each CPU. */
static DEFINE_PER_CPU(atomic_t, evtchn_ports_on);

static DEFINE_PER_CPU(int [NR_VIRQS], virq_to_irq);
static DEFINE_PER_CPU(int [XEN_NR_IPIS], ipi_to_irq);

/* The per-CPU table entry of a VIRQ or IPI binding. */
static int *percpu_slot(enum evtchn_kind kind, unsigned int index,
			unsigned int cpu)
{
	return kind == EVTCHN_KIND_VIRQ ? &per_cpu(virq_to_irq, cpu)[index] :
					  &per_cpu(ipi_to_irq, cpu)[index];
}

/* ---- port table ---- */

/* Ports whose CPU the irq core may choose: not a VIRQ's or an IPI's. */
static bool evtchn_movable(const struct evtchn_irq *info)
{
	return info->kind == EVTCHN_KIND_PORT || info->kind == EVTCHN_KIND_PIRQ;
}

static struct evtchn_irq *evtchn_lookup(evtchn_port_t port)
{
	struct evtchn_irq __rcu **row;

	if (port >= EVTCHN_FIFO_NR_CHANNELS)
		return NULL;
	row = READ_ONCE(evtchn_table[port / EVTCHN_ROW_SIZE]);
	if (!row)
		return NULL;
	return rcu_dereference_check(row[port % EVTCHN_ROW_SIZE],
				     lockdep_is_held(&evtchn_bind_lock));
}

static int evtchn_table_set(evtchn_port_t port, struct evtchn_irq *info)
{
	unsigned int r = port / EVTCHN_ROW_SIZE;
	struct evtchn_irq __rcu **row = evtchn_table[r];

	lockdep_assert_held(&evtchn_bind_lock);
	if (!row) {
		row = (void *)get_zeroed_page(GFP_KERNEL);
		if (!row)
			return -ENOMEM;
		WRITE_ONCE(evtchn_table[r], row);
	}
	rcu_assign_pointer(row[port % EVTCHN_ROW_SIZE], info);
	return 0;
}

/* ---- masking ---- */

static void evtchn_mask_for(struct evtchn_irq *info, u8 reason)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&info->lock, flags);
	if (!info->masked && info->port)
		evtchn_ops->mask(info->port);
	info->masked |= reason;
	raw_spin_unlock_irqrestore(&info->lock, flags);
}

static void evtchn_unmask_for(struct evtchn_irq *info, u8 reason)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&info->lock, flags);
	if (info->masked) {
		info->masked &= ~reason;
		if (!info->masked && info->port)
			evtchn_ops->unmask(info->port);
	}
	raw_spin_unlock_irqrestore(&info->lock, flags);
}

/* ---- irq_chip ---- */

static void evtchn_irq_mask(struct irq_data *d)
{
	evtchn_mask_for(irq_data_get_irq_chip_data(d), EVTCHN_MASKED_CORE);
}

static void evtchn_irq_unmask(struct irq_data *d)
{
	evtchn_unmask_for(irq_data_get_irq_chip_data(d), EVTCHN_MASKED_CORE);
}

/*
 * Called before the handler runs: an event raised while it runs sets the
 * pending bit again and is seen by the next scan.  A lateeoi port stays
 * masked until the driver's xen_irq_lateeoi().
 */
static void evtchn_irq_ack(struct irq_data *d)
{
	struct evtchn_irq *info = irq_data_get_irq_chip_data(d);

	if (info->lateeoi)
		evtchn_mask_for(info, EVTCHN_MASKED_EOI);
	evtchn_ops->clear_pending(info->port);
}

/*
 * For an event that is not handled now (the irq is disabled or its
 * handler still runs): the core resends it later.  No late EOI comes
 * for it, so it must not leave the port masked for one.
 */
static void evtchn_irq_mask_ack(struct irq_data *d)
{
	struct evtchn_irq *info = irq_data_get_irq_chip_data(d);

	evtchn_irq_mask(d);
	evtchn_ops->clear_pending(info->port);
}

static int evtchn_irq_retrigger(struct irq_data *d)
{
	struct evtchn_irq *info = irq_data_get_irq_chip_data(d);

	/* Unmasking a pending port has Xen deliver it again. */
	evtchn_mask_for(info, EVTCHN_MASKED_MOVE);
	evtchn_ops->set_pending(info->port);
	evtchn_unmask_for(info, EVTCHN_MASKED_MOVE);
	return 1;
}

static int evtchn_rebind(struct evtchn_irq *info, unsigned int cpu)
{
	struct evtchn_bind_vcpu bind = {
		.port = info->port,
		.vcpu = xen_vcpu_nr(cpu),
	};
	int rc;

	evtchn_mask_for(info, EVTCHN_MASKED_MOVE);
	rc = HYPERVISOR_event_channel_op(EVTCHNOP_bind_vcpu, &bind);
	if (!rc) {
		if (evtchn_ops->bind_to_cpu)
			evtchn_ops->bind_to_cpu(info->port, cpu, info->cpu);
		atomic_dec(per_cpu_ptr(&evtchn_ports_on, info->cpu));
		atomic_inc(per_cpu_ptr(&evtchn_ports_on, cpu));
		info->cpu = cpu;
	}
	evtchn_unmask_for(info, EVTCHN_MASKED_MOVE);
	return rc;
}

/*
 * The online CPU of @dest where @info's port would have the fewest
 * neighbours; its current CPU on a tie.  Counts read without a lock:
 * two ports placed at once may pick the same CPU, which does no harm.
 */
static unsigned int evtchn_least_loaded(const struct evtchn_irq *info,
					const struct cpumask *dest)
{
	unsigned int cpu, load, best = nr_cpu_ids, best_load = UINT_MAX;

	for_each_cpu_and(cpu, dest, cpu_online_mask) {
		load = atomic_read(per_cpu_ptr(&evtchn_ports_on, cpu));
		if (cpu == info->cpu)
			load--;		/* not counting the port itself */
		if (load < best_load || (load == best_load && cpu == info->cpu)) {
			best = cpu;
			best_load = load;
		}
	}
	return best;
}

static int evtchn_irq_set_affinity(struct irq_data *d,
				   const struct cpumask *dest, bool force)
{
	struct evtchn_irq *info = irq_data_get_irq_chip_data(d);
	unsigned int cpu;
	int rc;

	if (!evtchn_movable(info) || !xen_support_evtchn_rebind())
		return -EINVAL;
	if (!info->port) {
		/* A pirq not requested yet: Xen binds it to vCPU 0. */
		irq_data_update_effective_affinity(d, cpumask_of(info->cpu));
		return IRQ_SET_MASK_OK;
	}
	cpu = force ? cpumask_first(dest) : evtchn_least_loaded(info, dest);
	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	if (cpu != info->cpu) {
		rc = evtchn_rebind(info, cpu);
		if (rc)
			return rc;
	}
	irq_data_update_effective_affinity(d, cpumask_of(cpu));
	return IRQ_SET_MASK_OK;
}

static struct irq_chip pirq_chip;

static struct irq_chip evtchn_irq_chip = {
	.name			= "xen-evtchn",
	.irq_mask		= evtchn_irq_mask,
	.irq_unmask		= evtchn_irq_unmask,
	.irq_ack		= evtchn_irq_ack,
	.irq_mask_ack		= evtchn_irq_mask_ack,
	.irq_retrigger		= evtchn_irq_retrigger,
	.irq_set_affinity	= evtchn_irq_set_affinity,
};

/* ---- late EOI ---- */

static void evtchn_eoi_work(struct work_struct *work)
{
	struct evtchn_irq *info = container_of(to_delayed_work(work),
					       struct evtchn_irq, eoi_work);

	evtchn_unmask_for(info, EVTCHN_MASKED_EOI);
}

/**
 * xen_irq_lateeoi() - a driver has finished with an event
 * @irq: an irq bound with one of the _lateeoi functions
 * @eoi_flags: XEN_EOI_FLAG_SPURIOUS if the event brought no work
 *
 * Unmasks the port so the next event can come.  After a few spurious
 * events in a row the unmask is delayed, by a time that doubles with
 * each further one up to a second, so that a peer that raises events
 * for nothing cannot hog the CPU.
 */
void xen_irq_lateeoi(unsigned int irq, unsigned int eoi_flags)
{
	struct evtchn_irq *info = irq_get_chip_data(irq);
	unsigned int excess;

	if (!info || !info->lateeoi)
		return;

	if (!(eoi_flags & XEN_EOI_FLAG_SPURIOUS)) {
		info->spurious = 0;
		evtchn_unmask_for(info, EVTCHN_MASKED_EOI);
		return;
	}

	if (++info->spurious <= EVTCHN_SPURIOUS_FREE) {
		evtchn_unmask_for(info, EVTCHN_MASKED_EOI);
		return;
	}
	excess = min(info->spurious - EVTCHN_SPURIOUS_FREE, 11U);
	if (excess == 1)
		pr_info_ratelimited("xen: port %u (irq %u) raises spurious events; delaying them\n",
				    info->port, irq);
	mod_delayed_work(system_wq, &info->eoi_work,
			 msecs_to_jiffies(min(1U << (excess - 1),
					      EVTCHN_SPURIOUS_MAX_MS)));
}
EXPORT_SYMBOL_GPL(xen_irq_lateeoi);

/* ---- binding ---- */

/*
 * Put @port behind @info: the port starts masked and bound to info->cpu,
 * and is unmasked at the end if nothing wants it masked.
 */
static int evtchn_attach(struct evtchn_irq *info, evtchn_port_t port,
			 bool keep_pending)
{
	unsigned long flags;
	int rc;

	lockdep_assert_held(&evtchn_bind_lock);
	if (port >= evtchn_ops->max_channels())
		return -EINVAL;
	if (evtchn_lookup(port))
		return -EBUSY;
	if (evtchn_ops->setup) {
		rc = evtchn_ops->setup(port);
		if (rc)
			return rc;
	}

	evtchn_ops->mask(port);
	if (!keep_pending)
		evtchn_ops->clear_pending(port);
	if (evtchn_ops->bind_to_cpu)
		evtchn_ops->bind_to_cpu(port, info->cpu, info->cpu);
	rc = evtchn_table_set(port, info);
	if (rc) {
		if (evtchn_ops->remove)
			evtchn_ops->remove(port, info->cpu);
		return rc;
	}
	if (evtchn_movable(info))
		atomic_inc(per_cpu_ptr(&evtchn_ports_on, info->cpu));

	raw_spin_lock_irqsave(&info->lock, flags);
	info->port = port;
	if (!info->masked)
		evtchn_ops->unmask(port);
	raw_spin_unlock_irqrestore(&info->lock, flags);
	return 0;
}

/* Take @info's port out of the table; no upcall uses it once this returns. */
static evtchn_port_t evtchn_detach(struct evtchn_irq *info)
{
	evtchn_port_t port = info->port;
	unsigned long flags;

	lockdep_assert_held(&evtchn_bind_lock);
	raw_spin_lock_irqsave(&info->lock, flags);
	evtchn_ops->mask(port);
	info->port = 0;
	raw_spin_unlock_irqrestore(&info->lock, flags);

	rcu_assign_pointer(evtchn_table[port / EVTCHN_ROW_SIZE]
			   [port % EVTCHN_ROW_SIZE], NULL);
	if (evtchn_ops->remove)
		evtchn_ops->remove(port, info->cpu);
	if (evtchn_movable(info))
		atomic_dec(per_cpu_ptr(&evtchn_ports_on, info->cpu));
	synchronize_rcu();
	return port;
}

static struct evtchn_irq *evtchn_info_alloc(enum evtchn_kind kind,
					    unsigned int index,
					    unsigned int cpu, bool lateeoi)
{
	struct evtchn_irq *info = kzalloc(sizeof(*info), GFP_KERNEL);

	if (!info)
		return NULL;
	info->kind = kind;
	info->index = index;
	info->cpu = cpu;
	info->lateeoi = lateeoi;
	info->masked = EVTCHN_MASKED_CORE;
	raw_spin_lock_init(&info->lock);
	INIT_DELAYED_WORK(&info->eoi_work, evtchn_eoi_work);
	return info;
}

/* The first irq a port may get; a dom0 keeps the ISA ones for its pirqs. */
static unsigned int evtchn_first_irq = 1;

static struct evtchn_irq *evtchn_bind(evtchn_port_t port,
				      enum evtchn_kind kind,
				      unsigned int index, unsigned int cpu,
				      bool lateeoi, bool keep_pending)
{
	struct evtchn_irq *info;
	irq_flow_handler_t flow;
	const char *flow_name;
	int irq, rc;

	lockdep_assert_held(&evtchn_bind_lock);
	if (!evtchn_ops)
		return ERR_PTR(-ENODEV);
	info = evtchn_info_alloc(kind, index, cpu, lateeoi);
	if (!info)
		return ERR_PTR(-ENOMEM);
	/* Keep irq 0 free: many drivers take it for "no irq". */
	irq = irq_alloc_desc_from(evtchn_first_irq, -1);
	if (irq < 0) {
		kfree(info);
		return ERR_PTR(irq);
	}
	info->irq = irq;

	rc = evtchn_attach(info, port, keep_pending);
	if (rc) {
		irq_free_desc(irq);
		kfree(info);
		return ERR_PTR(rc);
	}

	if (kind == EVTCHN_KIND_PORT) {
		flow = handle_edge_irq;
		flow_name = lateeoi ? "lateeoi" : "edge";
		/* Moving is a hypercall: no need to wait for an interrupt. */
		irq_set_status_flags(irq, IRQ_MOVE_PCNTXT);
	} else {
		flow = handle_percpu_irq;
		flow_name = "percpu";
		irq_set_status_flags(irq, IRQ_NO_BALANCING);
	}
	irq_set_chip_and_handler_name(irq, &evtchn_irq_chip, flow, flow_name);
	irq_set_chip_data(irq, info);
	irq_data_update_effective_affinity(irq_get_irq_data(irq),
					   cpumask_of(cpu));
	return info;
}

static void evtchn_unbind(struct evtchn_irq *info, bool close)
{
	evtchn_port_t port;

	lockdep_assert_held(&evtchn_bind_lock);

	evtchn_mask_for(info, EVTCHN_MASKED_CORE);
	if (!evtchn_movable(info))
		*percpu_slot(info->kind, info->index, info->cpu) = -1;
	port = evtchn_detach(info);
	cancel_delayed_work_sync(&info->eoi_work);
	if (close)
		xen_evtchn_close(port);
	irq_set_chip_data(info->irq, NULL);
	irq_free_desc(info->irq);
	kfree(info);
}

static int bind_port(evtchn_port_t port, bool lateeoi, bool keep_pending)
{
	struct evtchn_irq *info;

	mutex_lock(&evtchn_bind_lock);
	info = evtchn_bind(port, EVTCHN_KIND_PORT, 0, 0, lateeoi, keep_pending);
	mutex_unlock(&evtchn_bind_lock);
	return IS_ERR(info) ? PTR_ERR(info) : info->irq;
}

/**
 * bind_evtchn_to_irq() - give a port an irq
 * @port: a port of this domain (interdomain or unbound)
 *
 * The irq starts on CPU 0; closing it with unbind_from_irq() closes the
 * port.
 *
 * Return: the irq, or a negative errno.
 */
int bind_evtchn_to_irq(evtchn_port_t port)
{
	return bind_port(port, false, false);
}
EXPORT_SYMBOL_GPL(bind_evtchn_to_irq);

/**
 * bind_evtchn_to_irq_lateeoi() - give a port an irq with late EOI
 * @port: a port of this domain (interdomain or unbound)
 *
 * Like bind_evtchn_to_irq(), but each event masks the port until the
 * driver calls xen_irq_lateeoi().
 *
 * Return: the irq, or a negative errno.
 */
int bind_evtchn_to_irq_lateeoi(evtchn_port_t port)
{
	return bind_port(port, true, false);
}
EXPORT_SYMBOL_GPL(bind_evtchn_to_irq_lateeoi);

/* Unbind @irq; its port is closed only if @close. */
static void unbind_irq(unsigned int irq, bool close)
{
	struct evtchn_irq *info;

	mutex_lock(&evtchn_bind_lock);
	info = irq_get_chip_data(irq);
	if (info && irq_get_chip(irq) == &evtchn_irq_chip)
		evtchn_unbind(info, close);
	else
		WARN_ONCE(1, "xen: irq %u is not an event channel\n", irq);
	mutex_unlock(&evtchn_bind_lock);
}

/*
 * Request a bound irq, or undo the bind.  A port the caller gave is the
 * caller's to close (@close false); one the bind made is closed here.
 */
static int request_bound_irq(int irq, irq_handler_t handler,
			     unsigned long irqflags, const char *name,
			     void *cookie, bool close)
{
	int rc;

	if (irq < 0)
		return irq;
	rc = request_irq(irq, handler, irqflags, name, cookie);
	if (rc) {
		unbind_irq(irq, close);
		return rc;
	}
	return irq;
}

/**
 * bind_evtchn_to_irqhandler() - bind a port and request its irq
 * @port: a port of this domain
 * @handler: the irq handler
 * @irqflags: flags for request_irq()
 * @name: name in /proc/interrupts
 * @cookie: what the handler is passed
 *
 * Return: the irq, or a negative errno (nothing is left bound; @port
 * stays open, for the caller to close).
 */
int bind_evtchn_to_irqhandler(evtchn_port_t port, irq_handler_t handler,
			      unsigned long irqflags, const char *name,
			      void *cookie)
{
	return request_bound_irq(bind_evtchn_to_irq(port), handler, irqflags,
				 name, cookie, false);
}
EXPORT_SYMBOL_GPL(bind_evtchn_to_irqhandler);

/**
 * bind_evtchn_to_irqhandler_lateeoi() - the same, with late EOI
 * @port: a port of this domain
 * @handler: the irq handler
 * @irqflags: flags for request_irq()
 * @name: name in /proc/interrupts
 * @cookie: what the handler is passed
 *
 * Return: the irq, or a negative errno (nothing is left bound; @port
 * stays open, for the caller to close).
 */
int bind_evtchn_to_irqhandler_lateeoi(evtchn_port_t port,
				      irq_handler_t handler,
				      unsigned long irqflags,
				      const char *name, void *cookie)
{
	return request_bound_irq(bind_evtchn_to_irq_lateeoi(port), handler,
				 irqflags, name, cookie, false);
}
EXPORT_SYMBOL_GPL(bind_evtchn_to_irqhandler_lateeoi);

/**
 * bind_interdomain_evtchn_to_irq_lateeoi() - connect to the other end's port
 * @dev: the device whose other end allocated the port
 * @their_port: that port, as the other end published it
 *
 * Binds a port of ours to it (EVTCHNOP_bind_interdomain) and gives ours an
 * irq with late EOI.  An event the other end sent before we were bound
 * is kept and delivered once the irq is enabled.  unbind_from_irq()
 * closes our port.
 *
 * Return: the irq, or a negative errno (nothing is left bound).
 */
int bind_interdomain_evtchn_to_irq_lateeoi(struct xenbus_device *dev,
					   evtchn_port_t their_port)
{
	struct evtchn_bind_interdomain op = {
		.remote_dom = dev->otherend_id,
		.remote_port = their_port,
	};
	int rc;

	rc = HYPERVISOR_event_channel_op(EVTCHNOP_bind_interdomain, &op);
	if (rc)
		return rc;
	rc = bind_port(op.local_port, true, true);
	if (rc < 0)
		xen_evtchn_close(op.local_port);
	return rc;
}
EXPORT_SYMBOL_GPL(bind_interdomain_evtchn_to_irq_lateeoi);

/**
 * bind_interdomain_evtchn_to_irqhandler_lateeoi() - the same, and request it
 * @dev: the device whose other end allocated the port
 * @their_port: that port
 * @handler: the irq handler
 * @irqflags: flags for request_irq()
 * @name: name in /proc/interrupts
 * @cookie: what the handler is passed
 *
 * Return: the irq, or a negative errno (nothing is left bound).
 */
int bind_interdomain_evtchn_to_irqhandler_lateeoi(struct xenbus_device *dev,
						  evtchn_port_t their_port,
						  irq_handler_t handler,
						  unsigned long irqflags,
						  const char *name,
						  void *cookie)
{
	return request_bound_irq(bind_interdomain_evtchn_to_irq_lateeoi(dev,
						their_port),
				 handler, irqflags, name, cookie, true);
}
EXPORT_SYMBOL_GPL(bind_interdomain_evtchn_to_irqhandler_lateeoi);

/* Have Xen bind a VIRQ or an IPI of @cpu, and give the port an irq. */
static int bind_percpu(enum evtchn_kind kind, unsigned int index,
		       unsigned int cpu)
{
	struct evtchn_bind_virq virq = {
		.virq = index,
		.vcpu = xen_vcpu_nr(cpu),
	};
	struct evtchn_bind_ipi ipi = { .vcpu = xen_vcpu_nr(cpu) };
	struct evtchn_irq *info;
	evtchn_port_t port;
	int rc;

	mutex_lock(&evtchn_bind_lock);
	if (*percpu_slot(kind, index, cpu) > 0) {
		rc = -EBUSY;
		goto out;
	}
	if (kind == EVTCHN_KIND_VIRQ) {
		rc = HYPERVISOR_event_channel_op(EVTCHNOP_bind_virq, &virq);
		port = virq.port;
	} else {
		rc = HYPERVISOR_event_channel_op(EVTCHNOP_bind_ipi, &ipi);
		port = ipi.port;
	}
	if (rc)
		goto out;
	info = evtchn_bind(port, kind, index, cpu, false, false);
	if (IS_ERR(info)) {
		xen_evtchn_close(port);
		rc = PTR_ERR(info);
		goto out;
	}
	rc = info->irq;
	*percpu_slot(kind, index, cpu) = rc;
out:
	mutex_unlock(&evtchn_bind_lock);
	return rc;
}

/**
 * bind_virq_to_irqhandler() - bind a virtual IRQ of one vCPU
 * @virq: a VIRQ_* number
 * @cpu: the CPU whose VIRQ it is
 * @handler: the irq handler
 * @irqflags: flags for request_irq(); IRQF_PERCPU is implied
 * @name: name in /proc/interrupts
 * @cookie: what the handler is passed
 *
 * Return: the irq, or a negative errno.
 */
int bind_virq_to_irqhandler(unsigned int virq, unsigned int cpu,
			    irq_handler_t handler, unsigned long irqflags,
			    const char *name, void *cookie)
{
	if (virq >= NR_VIRQS || cpu >= nr_cpu_ids)
		return -EINVAL;
	return request_bound_irq(bind_percpu(EVTCHN_KIND_VIRQ, virq, cpu),
				 handler,
				 irqflags | IRQF_PERCPU | IRQF_NOBALANCING,
				 name, cookie, true);
}
EXPORT_SYMBOL_GPL(bind_virq_to_irqhandler);

/**
 * bind_ipi_to_irqhandler() - bind an IPI to one vCPU
 * @ipi: which IPI
 * @cpu: the CPU that receives it
 * @handler: the irq handler
 * @irqflags: flags for request_irq(); IRQF_PERCPU is implied
 * @name: name in /proc/interrupts
 * @cookie: what the handler is passed
 *
 * Return: the irq, or a negative errno.
 */
int bind_ipi_to_irqhandler(enum ipi_vector ipi, unsigned int cpu,
			   irq_handler_t handler, unsigned long irqflags,
			   const char *name, void *cookie)
{
	if (ipi >= XEN_NR_IPIS || cpu >= nr_cpu_ids)
		return -EINVAL;
	return request_bound_irq(bind_percpu(EVTCHN_KIND_IPI, ipi, cpu),
				 handler,
				 irqflags | IRQF_PERCPU | IRQF_NOBALANCING,
				 name, cookie, true);
}
EXPORT_SYMBOL_GPL(bind_ipi_to_irqhandler);

/**
 * unbind_from_irq() - undo a bind that has no handler requested
 * @irq: the irq a bind function returned
 *
 * Closes the port.
 */
void unbind_from_irq(unsigned int irq)
{
	unbind_irq(irq, true);
}
EXPORT_SYMBOL_GPL(unbind_from_irq);

/**
 * unbind_from_irqhandler() - free an irq and close its port
 * @irq: the irq a bind_*_to_irqhandler function returned
 * @cookie: the cookie it was requested with
 */
void unbind_from_irqhandler(unsigned int irq, void *cookie)
{
	free_irq(irq, cookie);
	unbind_from_irq(irq);
}
EXPORT_SYMBOL_GPL(unbind_from_irqhandler);

/**
 * irq_from_evtchn() - the irq bound to a port
 * @port: the port
 *
 * Return: the irq, or 0 if the port is not bound.
 */
unsigned int irq_from_evtchn(evtchn_port_t port)
{
	struct evtchn_irq *info;
	unsigned int irq = 0;

	rcu_read_lock();
	info = evtchn_lookup(port);
	if (info)
		irq = info->irq;
	rcu_read_unlock();
	return irq;
}
EXPORT_SYMBOL_GPL(irq_from_evtchn);

/**
 * evtchn_from_irq() - the port bound to an irq
 * @irq: the irq
 *
 * Return: the port, or 0 (never a valid port) if @irq is not bound.
 */
evtchn_port_t evtchn_from_irq(unsigned int irq)
{
	struct evtchn_irq *info;

	if (irq_get_chip(irq) != &evtchn_irq_chip &&
	    irq_get_chip(irq) != &pirq_chip)
		return 0;
	info = irq_get_chip_data(irq);
	return info ? READ_ONCE(info->port) : 0;
}
EXPORT_SYMBOL_GPL(evtchn_from_irq);

/**
 * xen_set_irq_priority() - move an irq's events to another FIFO queue
 * @irq: an irq bound to an event channel
 * @priority: EVTCHN_FIFO_PRIORITY_MAX (0, served first) to
 *	EVTCHN_FIFO_PRIORITY_MIN; ports start at _DEFAULT
 *
 * Each priority is a queue of its own, which the upcall empties before
 * it looks at a lower one.  Only the FIFO ABI has them.
 *
 * Return: 0, -EOPNOTSUPP with the 2-level ABI (nothing changes), or
 * another negative errno.
 */
int xen_set_irq_priority(unsigned int irq, unsigned int priority)
{
	struct evtchn_set_priority set = {
		.port = evtchn_from_irq(irq),
		.priority = priority,
	};

	if (!evtchn_ops->priorities)
		return -EOPNOTSUPP;
	if (!set.port)
		return -EINVAL;
	return HYPERVISOR_event_channel_op(EVTCHNOP_set_priority, &set);
}
EXPORT_SYMBOL_GPL(xen_set_irq_priority);

/**
 * notify_remote_via_irq() - send an event on an irq's port
 * @irq: an irq bound to an interdomain port
 */
void notify_remote_via_irq(int irq)
{
	evtchn_port_t port = evtchn_from_irq(irq);

	if (port)
		notify_remote_via_evtchn(port);
}
EXPORT_SYMBOL_GPL(notify_remote_via_irq);

/**
 * xen_test_irq_pending() - is an irq's port pending?
 * @irq: an irq bound to a port
 *
 * Meant for ports whose irq is left disabled and that are polled with
 * xen_poll_irq() instead.
 *
 * Return: true if an event is pending on it.
 */
bool xen_test_irq_pending(int irq)
{
	evtchn_port_t port = evtchn_from_irq(irq);

	return port && evtchn_ops->is_pending(port);
}

/**
 * xen_clear_irq_pending() - forget a pending event of an irq's port
 * @irq: an irq bound to a port
 */
void xen_clear_irq_pending(int irq)
{
	evtchn_port_t port = evtchn_from_irq(irq);

	if (port)
		evtchn_ops->clear_pending(port);
}

/**
 * xen_poll_irq_timeout() - block this vCPU until an irq's port is pending
 * @irq: an irq bound to a port
 * @timeout: Xen system time (ns) to give up at, 0 for never
 *
 * SCHEDOP_poll: returns at once if the port is pending already, and
 * also when an interrupt can be delivered to this vCPU, so callers must
 * take any return as possibly spurious.  The port may be masked: a
 * masked port still wakes its poller.
 */
void xen_poll_irq_timeout(int irq, u64 timeout)
{
	evtchn_port_t port = evtchn_from_irq(irq);
	struct sched_poll poll = {
		.nr_ports = 1,
		.timeout = timeout,
	};

	if (!port)
		return;
	set_xen_guest_handle(poll.ports, &port);
	HYPERVISOR_sched_op(SCHEDOP_poll, &poll);
}

/**
 * xen_poll_irq() - xen_poll_irq_timeout() without a timeout
 * @irq: an irq bound to a port
 */
void xen_poll_irq(int irq)
{
	xen_poll_irq_timeout(irq, 0);
}

/**
 * xen_send_IPI_one() - interrupt another CPU over its IPI port
 * @cpu: the CPU
 * @vector: which IPI
 */
void xen_send_IPI_one(unsigned int cpu, enum ipi_vector vector)
{
	int irq = per_cpu(ipi_to_irq, cpu)[vector];

	if (WARN_ON_ONCE(irq <= 0))
		return;
	notify_remote_via_irq(irq);
}

/**
 * xen_evtchn_ports_on_cpu() - ports that may move bound to a CPU
 * @cpu: the CPU
 *
 * Counts the ports of devices (not VIRQs or IPIs) whose events arrive on
 * @cpu; new ones go to the CPU with the fewest.
 *
 * Return: the count.
 */
unsigned int xen_evtchn_ports_on_cpu(unsigned int cpu)
{
	return atomic_read(per_cpu_ptr(&evtchn_ports_on, cpu));
}

/**
 * xen_evtchn_nr_channels() - ports the current ABI can address now
 *
 * Return: the number of ports.
 */
unsigned int xen_evtchn_nr_channels(void)
{
	return evtchn_ops ? evtchn_ops->nr_channels() : 0;
}
EXPORT_SYMBOL_GPL(xen_evtchn_nr_channels);

/* ---- physical IRQs (dom0) ---- */

/*
 * A pirq is an interrupt line or MSI of a real device, which Xen takes
 * and hands on as an event.  Its irq exists from the moment the line is
 * registered (a GSI through ACPI, say), but the event channel only while
 * a driver has it requested: Xen unmasks the line when the port is
 * bound, and a line that nobody handles is better left masked.  A
 * level-triggered line stays held by Xen from one event until
 * PHYSDEVOP_eoi; Xen forces the EOI itself after a millisecond.
 */
static DEFINE_XARRAY(pirq_irqs);

static int pirq_request(struct irq_data *d)
{
	struct evtchn_irq *info = irq_data_get_irq_chip_data(d);
	struct evtchn_bind_pirq bind = {
		.pirq = info->index,
		.flags = BIND_PIRQ__WILL_SHARE,
	};
	int rc;

	mutex_lock(&evtchn_bind_lock);
	rc = HYPERVISOR_event_channel_op(EVTCHNOP_bind_pirq, &bind);
	if (rc) {
		pr_warn("xen: irq %u: pirq %u cannot be bound: %d\n",
			info->irq, info->index, rc);
		goto out;
	}
	info->cpu = 0;	/* where Xen sends a new pirq's events */
	rc = evtchn_attach(info, bind.port, false);
	if (rc)
		xen_evtchn_close(bind.port);
out:
	mutex_unlock(&evtchn_bind_lock);
	return rc;
}

static void pirq_release(struct irq_data *d)
{
	struct evtchn_irq *info = irq_data_get_irq_chip_data(d);

	mutex_lock(&evtchn_bind_lock);
	if (info->port)
		xen_evtchn_close(evtchn_detach(info));
	mutex_unlock(&evtchn_bind_lock);
}

/* After the handlers of a level pirq: let Xen deliver the line again. */
static void pirq_eoi(struct irq_data *d)
{
	struct evtchn_irq *info = irq_data_get_irq_chip_data(d);
	struct physdev_eoi eoi = { .irq = info->index };
	evtchn_port_t port = READ_ONCE(info->port);

	if (port)
		evtchn_ops->clear_pending(port);
	HYPERVISOR_physdev_op(PHYSDEVOP_eoi, &eoi);
}

/*
 * An edge pirq's event taken: an MSI without per-vector masking also
 * holds Xen's local APIC until PHYSDEVOP_eoi (else for a millisecond).
 * The port is clear first, so an interrupt that comes after is not lost.
 */
static void pirq_ack(struct irq_data *d)
{
	struct evtchn_irq *info = irq_data_get_irq_chip_data(d);
	struct physdev_eoi eoi = { .irq = info->index };

	evtchn_irq_ack(d);
	if (info->eoi_on_ack)
		HYPERVISOR_physdev_op(PHYSDEVOP_eoi, &eoi);
}

static struct irq_chip pirq_chip = {
	.name			= "xen-pirq",
	.irq_request_resources	= pirq_request,
	.irq_release_resources	= pirq_release,
	.irq_mask		= evtchn_irq_mask,
	.irq_unmask		= evtchn_irq_unmask,
	.irq_ack		= pirq_ack,
	.irq_eoi		= pirq_eoi,
	.irq_retrigger		= evtchn_irq_retrigger,
	.irq_set_affinity	= evtchn_irq_set_affinity,
};

static int pirq_irq_get(unsigned int pirq, int want_irq, bool level,
			bool eoi_on_ack, const char *name)
{
	struct evtchn_irq *info;
	int irq = -ENOMEM, rc;

	mutex_lock(&evtchn_bind_lock);
	info = xa_load(&pirq_irqs, pirq);
	if (info) {
		irq = info->irq;
		goto out;
	}
	info = evtchn_info_alloc(EVTCHN_KIND_PIRQ, pirq, 0, false);
	if (!info)
		goto out;
	info->level = level;
	info->eoi_on_ack = eoi_on_ack;
	irq = -1;
	if (want_irq > 0)
		irq = irq_alloc_desc_at(want_irq, -1);
	if (irq < 0)
		irq = irq_alloc_desc_from(evtchn_first_irq, -1);
	if (irq < 0) {
		kfree(info);
		goto out;
	}
	info->irq = irq;
	rc = xa_err(xa_store(&pirq_irqs, pirq, info, GFP_KERNEL));
	if (rc) {
		irq_free_desc(irq);
		kfree(info);
		irq = rc;
		goto out;
	}
	irq_set_chip_and_handler_name(irq, &pirq_chip,
				      level ? handle_fasteoi_irq :
					      handle_edge_irq, name);
	irq_set_chip_data(irq, info);
	irq_set_status_flags(irq, IRQ_MOVE_PCNTXT);
out:
	mutex_unlock(&evtchn_bind_lock);
	return irq;
}

/**
 * xen_pirq_to_irq() - the irq of a physical IRQ Xen has mapped for us
 * @pirq: the pirq (PHYSDEVOP_map_pirq's answer)
 * @want_irq: the irq number to give it if that one is free, or -1
 * @level: the line is level-triggered
 * @name: for /proc/interrupts
 *
 * The event channel is bound when a driver requests the irq and closed
 * when the last one frees it.  Asking again for the same pirq gives the
 * same irq.
 *
 * Return: the irq, or a negative errno.
 */
int xen_pirq_to_irq(unsigned int pirq, int want_irq, bool level,
		    const char *name)
{
	return pirq_irq_get(pirq, want_irq, level, false, name);
}
EXPORT_SYMBOL_GPL(xen_pirq_to_irq);

/**
 * xen_pirq_msi_to_irq() - the irq of an MSI or MSI-X vector Xen mapped
 * @pirq: the pirq (PHYSDEVOP_map_pirq's answer)
 * @eoi: Xen wants PHYSDEVOP_eoi for it (an MSI without per-vector
 *	masking)
 * @name: for /proc/interrupts
 *
 * Edge-triggered; otherwise as xen_pirq_to_irq().  Give it back with
 * xen_pirq_free_irq() before Xen unmaps the pirq.
 *
 * Return: the irq, or a negative errno.
 */
int xen_pirq_msi_to_irq(unsigned int pirq, bool eoi, const char *name)
{
	return pirq_irq_get(pirq, -1, false, eoi, name);
}
EXPORT_SYMBOL_GPL(xen_pirq_msi_to_irq);

/**
 * xen_pirq_free_irq() - forget the irq of a pirq
 * @irq: an irq xen_pirq_msi_to_irq() or xen_pirq_to_irq() gave, which no
 *	driver has requested any more
 */
void xen_pirq_free_irq(unsigned int irq)
{
	struct evtchn_irq *info;

	mutex_lock(&evtchn_bind_lock);
	if (WARN_ON(irq_get_chip(irq) != &pirq_chip)) {
		mutex_unlock(&evtchn_bind_lock);
		return;
	}
	info = irq_get_chip_data(irq);
	/* Still requested: close the port, before Xen unmaps the pirq. */
	if (WARN_ON(info->port))
		xen_evtchn_close(evtchn_detach(info));
	xa_erase(&pirq_irqs, info->index);
	irq_set_chip_and_handler(irq, NULL, NULL);
	irq_set_chip_data(irq, NULL);
	irq_free_desc(irq);
	mutex_unlock(&evtchn_bind_lock);
	kfree(info);
}
EXPORT_SYMBOL_GPL(xen_pirq_free_irq);

/**
 * xen_pirq_from_irq() - the pirq behind an irq
 * @irq: an irq xen_pirq_to_irq() gave
 *
 * Return: the pirq, or 0 if @irq is not a pirq's.
 */
unsigned int xen_pirq_from_irq(unsigned int irq)
{
	struct evtchn_irq *info;

	if (irq_get_chip(irq) != &pirq_chip)
		return 0;
	info = irq_get_chip_data(irq);
	return info ? info->index : 0;
}
EXPORT_SYMBOL_GPL(xen_pirq_from_irq);

/* ---- upcall ---- */

/**
 * xen_evtchn_handle_port() - run the irq of one pending port
 * @port: a port the ABI found pending and unmasked for this CPU
 *
 * Called by the ABI's handle_events, with interrupts off.  A port that
 * nothing is bound to is left masked, and pending: it may be one being
 * bound right now, whose first event the binding delivers once it has
 * put the port in the table (keep_pending).
 */
void xen_evtchn_handle_port(evtchn_port_t port)
{
	struct evtchn_irq *info = evtchn_lookup(port);

	if (likely(info)) {
		generic_handle_irq(info->irq);
		return;
	}
	evtchn_ops->mask(port);
}

/**
 * xen_evtchn_do_upcall() - handle this CPU's pending events
 *
 * Called from the upcall vector, with interrupts off.
 *
 * Return: 0.
 */
int xen_evtchn_do_upcall(void)
{
	unsigned int cpu = smp_processor_id();
	struct vcpu_info *vi = __this_cpu_read(xen_vcpu);

	do {
		/*
		 * Clear the flag before scanning: an event Xen raises from
		 * now on is either found by this scan or sets it again.
		 */
		WRITE_ONCE(vi->evtchn_upcall_pending, 0);
		virt_mb();	/* the clear before the reads of the scan */
		evtchn_ops->handle_events(cpu);
	} while (READ_ONCE(vi->evtchn_upcall_pending));
	return 0;
}
EXPORT_SYMBOL_GPL(xen_evtchn_do_upcall);

/* ---- setup ---- */

static int evtchn_cpu_prepare(unsigned int cpu)
{
	return evtchn_ops->percpu_init ? evtchn_ops->percpu_init(cpu) : 0;
}

static int evtchn_cpu_dead(unsigned int cpu)
{
	return evtchn_ops->percpu_deinit ? evtchn_ops->percpu_deinit(cpu) : 0;
}

/**
 * xen_init_IRQ() - choose the event channel ABI
 *
 * FIFO when Xen offers it and xen.fifo_events is not 0, 2-level
 * otherwise.  Called once, on the boot CPU, before anything binds a
 * port and after its vcpu_info is in place.
 */
void __init xen_init_IRQ(void)
{
	unsigned int cpu;
	int rc;

	for_each_possible_cpu(cpu) {
		memset(per_cpu(virq_to_irq, cpu), 0xff,
		       sizeof(per_cpu(virq_to_irq, cpu)));
		memset(per_cpu(ipi_to_irq, cpu), 0xff,
		       sizeof(per_cpu(ipi_to_irq, cpu)));
	}

	if (xen_initial_domain())
		evtchn_first_irq = NR_IRQS_LEGACY;
	if (fifo_events)
		evtchn_ops = xen_evtchn_fifo_init();
	if (!evtchn_ops)
		evtchn_ops = xen_evtchn_2l_init();
	pr_info("xen: %s event channels, %u ports\n", evtchn_ops->name,
		evtchn_ops->max_channels());

	rc = cpuhp_setup_state_nocalls(CPUHP_XEN_EVTCHN_PREPARE,
				       "xen/evtchn:prepare",
				       evtchn_cpu_prepare, evtchn_cpu_dead);
	if (rc)
		pr_err("xen: no event channels for CPUs brought up later: %d\n",
		       rc);
}
