/* SPDX-License-Identifier: MIT */
/*
 * The core of the Xen guest ABI, common to every guest type: hypercall
 * numbers, virtual IRQs, reserved domain ids, the PV MMU operations, and
 * the layout of the pages Xen shares with a guest (shared info, vcpu info,
 * PV start info).
 *
 * Types and constants only, no kernel state.  tools/testing/xen/abi checks
 * every definition here against Xen 4.17's public headers.  The hypercall
 * numbers and console commands are usable from assembly.
 */
#ifndef _XEN_INTERFACE_XEN_H
#define _XEN_INTERFACE_XEN_H

#include <linux/bits.h>
#include <asm/pvclock-abi.h>
#include <asm/xen/interface.h>

/*
 * Hypercall numbers.  Hypercall N is entered through the 32-byte stub at
 * offset N * 32 of the hypercall page.  Numbers marked "compat" are the
 * old forms that newer numbers replaced.
 */
#define __HYPERVISOR_set_trap_table			0
#define __HYPERVISOR_mmu_update				1
#define __HYPERVISOR_set_gdt				2
#define __HYPERVISOR_stack_switch			3
#define __HYPERVISOR_set_callbacks			4
#define __HYPERVISOR_fpu_taskswitch			5
#define __HYPERVISOR_sched_op_compat			6
#define __HYPERVISOR_platform_op			7
#define __HYPERVISOR_set_debugreg			8
#define __HYPERVISOR_get_debugreg			9
#define __HYPERVISOR_update_descriptor			10
#define __HYPERVISOR_memory_op				12
#define __HYPERVISOR_multicall				13
#define __HYPERVISOR_update_va_mapping			14
#define __HYPERVISOR_set_timer_op			15
#define __HYPERVISOR_event_channel_op_compat		16
#define __HYPERVISOR_xen_version			17
#define __HYPERVISOR_console_io				18
#define __HYPERVISOR_physdev_op_compat			19
#define __HYPERVISOR_grant_table_op			20
#define __HYPERVISOR_vm_assist				21
#define __HYPERVISOR_update_va_mapping_otherdomain	22
#define __HYPERVISOR_iret				23
#define __HYPERVISOR_vcpu_op				24
#define __HYPERVISOR_set_segment_base			25
#define __HYPERVISOR_mmuext_op				26
#define __HYPERVISOR_xsm_op				27
#define __HYPERVISOR_nmi_op				28
#define __HYPERVISOR_sched_op				29
#define __HYPERVISOR_callback_op			30
#define __HYPERVISOR_xenoprof_op			31
#define __HYPERVISOR_event_channel_op			32
#define __HYPERVISOR_physdev_op				33
#define __HYPERVISOR_hvm_op				34
#define __HYPERVISOR_sysctl				35
#define __HYPERVISOR_domctl				36
#define __HYPERVISOR_kexec_op				37
#define __HYPERVISOR_tmem_op				38
#define __HYPERVISOR_argo_op				39
#define __HYPERVISOR_xenpmu_op				40
#define __HYPERVISOR_dm_op				41
#define __HYPERVISOR_hypfs_op				42
/* 48 to 55 are reserved for architecture-specific hypercalls. */
#define __HYPERVISOR_arch_0				48
#define __HYPERVISOR_arch_1				49

/* Commands of console_io: Xen's own console (dom0; domUs with a debug Xen). */
#define CONSOLEIO_write			0
#define CONSOLEIO_read			1

#ifndef __ASSEMBLY__
/*
 * Virtual IRQs: events Xen raises itself, bound to an event channel with
 * EVTCHNOP_bind_virq.  Per-vCPU ones are bound once per vCPU; the others
 * (global) once per domain, and most make sense only in dom0.
 */
#define VIRQ_TIMER		0	/* per vCPU: singleshot timer expired */
#define VIRQ_DEBUG		1	/* per vCPU: dump debug state ('q' key) */
#define VIRQ_CONSOLE		2	/* global: input on Xen's console */
#define VIRQ_DOM_EXC		3	/* global: a domain needs attention */
#define VIRQ_TBUF		4	/* global: trace buffers need reading */
#define VIRQ_DEBUGGER		6	/* global: a domain paused for a debugger */
#define VIRQ_XENOPROF		7	/* per vCPU: profiling sample ready */
#define VIRQ_CON_RING		8	/* global: Xen's console ring has data */
#define VIRQ_PCPU_STATE		9	/* global: a physical CPU changed state */
#define VIRQ_MEM_EVENT		10	/* global: a memory event occurred */
#define VIRQ_ARGO		11	/* global: Argo message arrived */
#define VIRQ_ENOMEM		12	/* global: Xen is low on heap memory */
#define VIRQ_XENPMU		13	/* per vCPU: PMU interrupt */
#define VIRQ_ARCH_0		16	/* first of 8 architecture-specific */
#define NR_VIRQS		24

/*
 * Domain ids.  Ordinary domains are numbered below DOMID_FIRST_RESERVED;
 * the ids from there up name special domains in hypercalls.
 */
typedef u16 domid_t;

#define DOMID_FIRST_RESERVED	0x7FF0U
#define DOMID_SELF		0x7FF0U	/* the calling domain */
#define DOMID_IO		0x7FF1U	/* owner of I/O memory */
#define DOMID_XEN		0x7FF2U	/* owner of Xen's own pages */
#define DOMID_COW		0x7FF3U	/* owner of shared copy-on-write pages */
#define DOMID_INVALID		0x7FF4U	/* no domain */
#define DOMID_IDLE		0x7FFFU	/* the idle domain */
#define DOMID_MASK		0x7FFFU

/* A domain's UUID, as the toolstack gave it (XENVER_guest_handle). */
typedef u8 xen_domain_handle_t[16];

/*
 * HYPERVISOR_vm_assist(cmd, type): turn on or off an optional behaviour
 * of Xen for this domain.  runstate_update_flag: Xen sets
 * XEN_RUNSTATE_UPDATE in a runstate area's state_entry_time while it
 * writes the area, so that another vCPU can read it consistently.
 */
#define VMASST_CMD_enable		0
#define VMASST_CMD_disable		1
#define VMASST_TYPE_writable_pagetables	2
#define VMASST_TYPE_runstate_update_flag 5

/*
 * PV MMU: mmu_update requests.  The low two bits of mmu_update.ptr say
 * what the rest of it is; the remaining bits are a machine address.
 */
#define MMU_NORMAL_PT_UPDATE		0	/* checked *ptr = val */
#define MMU_MACHPHYS_UPDATE		1	/* M2P[ptr >> PAGE_SHIFT] = val */
#define MMU_PT_UPDATE_PRESERVE_AD	2	/* as NORMAL, keeps A/D bits */
#define MMU_PT_UPDATE_NO_TRANSLATE	3	/* as NORMAL, val not translated */

/**
 * struct mmu_update - one request of the mmu_update hypercall
 * @ptr: machine address of the entry, with the MMU_* command in bits 0-1
 * @val: the new contents
 */
struct mmu_update {
	u64 ptr;
	u64 val;
};

/* PV MMU: mmuext_op commands. */
#define MMUEXT_PIN_L1_TABLE		0
#define MMUEXT_PIN_L2_TABLE		1
#define MMUEXT_PIN_L3_TABLE		2
#define MMUEXT_PIN_L4_TABLE		3
#define MMUEXT_UNPIN_TABLE		4
#define MMUEXT_NEW_BASEPTR		5
#define MMUEXT_TLB_FLUSH_LOCAL		6
#define MMUEXT_INVLPG_LOCAL		7
#define MMUEXT_TLB_FLUSH_MULTI		8
#define MMUEXT_INVLPG_MULTI		9
#define MMUEXT_TLB_FLUSH_ALL		10
#define MMUEXT_INVLPG_ALL		11
#define MMUEXT_FLUSH_CACHE		12
#define MMUEXT_SET_LDT			13
#define MMUEXT_NEW_USER_BASEPTR		15
#define MMUEXT_CLEAR_PAGE		16
#define MMUEXT_COPY_PAGE		17
#define MMUEXT_FLUSH_CACHE_GLOBAL	18
#define MMUEXT_MARK_SUPER		19
#define MMUEXT_UNMARK_SUPER		20

/**
 * struct mmuext_op - one request of the mmuext_op hypercall
 * @cmd: an MMUEXT_* command
 * @arg1: first argument
 * @arg1.mfn: table to pin or unpin, or new base pointer
 * @arg1.linear_addr: address to invalidate, or base of the new LDT
 * @arg2: second argument
 * @arg2.nr_ents: number of LDT entries (SET_LDT)
 * @arg2.vcpumask: guest pointer to the bitmap of vCPUs to act on (*_MULTI)
 * @arg2.src_mfn: source frame (COPY_PAGE)
 */
struct mmuext_op {
	unsigned int cmd;
	union {
		xen_pfn_t mfn;
		unsigned long linear_addr;
	} arg1;
	union {
		unsigned int nr_ents;
		const void *vcpumask;
		xen_pfn_t src_mfn;
	} arg2;
};

/* Flags of update_va_mapping: which TLB flush to do afterwards, and where. */
#define UVMF_NONE		0UL
#define UVMF_TLB_FLUSH		BIT(0)
#define UVMF_INVLPG		BIT(1)
#define UVMF_FLUSHTYPE_MASK	GENMASK(1, 0)
#define UVMF_MULTI		0UL	/* the vCPUs in a mask, in bits 3+ */
#define UVMF_LOCAL		0UL
#define UVMF_ALL		BIT(2)

/**
 * struct multicall_entry - one hypercall in a multicall batch
 * @op: hypercall number
 * @result: filled in by Xen with that hypercall's return value
 * @args: its arguments
 */
struct multicall_entry {
	xen_ulong_t op;
	xen_ulong_t result;
	xen_ulong_t args[6];
};

/**
 * struct vcpu_time_info - Xen's time snapshot for one vCPU
 * @version: odd while Xen updates the record; a reader copies it out
 *	between two reads of @version and retries unless both are equal
 *	and even
 * @pad0: unused
 * @tsc_timestamp: TSC value when @system_time was taken
 * @system_time: nanoseconds since the domain booted, at @tsc_timestamp
 * @tsc_to_system_mul: multiplier, a 32.32 fixed-point fraction, that
 *	turns a TSC delta (shifted by @tsc_shift) into nanoseconds
 * @tsc_shift: shift applied to the TSC delta first, left if positive
 * @flags: XEN_PVCLOCK_* flags
 * @pad1: unused
 */
struct vcpu_time_info {
	u32 version;
	u32 pad0;
	u64 tsc_timestamp;
	u64 system_time;
	u32 tsc_to_system_mul;
	s8 tsc_shift;
	u8 flags;
	u8 pad1[2];
};

/* The TSC is synchronised across vCPUs and safe to use as a clocksource. */
#define XEN_PVCLOCK_TSC_STABLE_BIT	BIT(0)
/* The vCPU was paused by the toolstack: lockup watchdogs should not fire. */
#define XEN_PVCLOCK_GUEST_STOPPED	BIT(1)

/**
 * struct vcpu_info - state Xen shares with one vCPU
 * @evtchn_upcall_pending: set by Xen when an event is waiting
 * @evtchn_upcall_mask: set by the guest to hold off event upcalls
 *	(PV; HVM and PVH guests use their interrupt flag instead)
 * @evtchn_pending_sel: 2-level ABI: which words of the pending bitmap
 *	may have bits set for this vCPU
 * @arch: architecture part
 * @time: this vCPU's time snapshot
 */
struct vcpu_info {
	u8 evtchn_upcall_pending;
	u8 evtchn_upcall_mask;
	xen_ulong_t evtchn_pending_sel;
	struct arch_vcpu_info arch;
	struct vcpu_time_info time;
};

/**
 * struct shared_info - the page Xen shares with the whole domain
 * @vcpu_info: info of the first XEN_LEGACY_MAX_VCPUS vCPUs, for guests
 *	that do not place it elsewhere with VCPUOP_register_vcpu_info
 * @evtchn_pending: 2-level ABI: one bit per event channel, set by Xen
 * @evtchn_mask: 2-level ABI: one bit per event channel, set by the guest
 * @wc: the wall clock at system time 0: its version (odd while Xen
 *	writes it), seconds (low 32 bits) and nanoseconds.  Xen's headers
 *	name the three wc_version, wc_sec and wc_nsec; Linux reads them as
 *	the pvclock record they are laid out as.
 * @wc_sec_hi: high 32 bits of the seconds
 * @arch: architecture part
 */
struct shared_info {
	struct vcpu_info vcpu_info[XEN_LEGACY_MAX_VCPUS];
	xen_ulong_t evtchn_pending[sizeof(xen_ulong_t) * 8];
	xen_ulong_t evtchn_mask[sizeof(xen_ulong_t) * 8];
	struct pvclock_wall_clock wc;
	u32 wc_sec_hi;
	struct arch_shared_info arch;
};

/* Flags in start_info.flags (PV) and hvm_start_info.flags (PVH). */
#define SIF_PRIVILEGED		BIT(0)	/* privileged domain */
#define SIF_INITDOMAIN		BIT(1)	/* the initial domain, dom0 */
#define SIF_MULTIBOOT_MOD	BIT(2)	/* mod_start is a multiboot module */
#define SIF_MOD_START_PFN	BIT(3)	/* mod_start is a frame number */
#define SIF_VIRT_P2M_4TOOLS	BIT(4)	/* tools read a virtual P2M list */
#define SIF_PM_MASK		GENMASK(15, 8)	/* power management options */

#define MAX_GUEST_CMDLINE	1024

/**
 * struct start_info - what Xen tells a PV guest at boot
 * @magic: "xen-<version>-<platform>"
 * @nr_pages: pages the domain was given
 * @shared_info: machine address of the shared info page
 * @flags: SIF_* flags
 * @store_mfn: machine frame of the xenstore ring
 * @store_evtchn: event channel of the xenstore ring
 * @console: the console ring, for a domU; where Xen's console info sits
 *	in this page, for dom0
 * @console.domU.mfn: machine frame of the console ring
 * @console.domU.evtchn: event channel of the console ring
 * @console.dom0.info_off: offset of struct dom0_vga_console_info
 * @console.dom0.info_size: and its size
 * @pt_base: virtual address of the initial top-level page table
 * @nr_pt_frames: frames of the initial page tables
 * @mfn_list: virtual address of the initial P2M list
 * @mod_start: virtual address (or frame, with SIF_MOD_START_PFN) of the
 *	initrd
 * @mod_len: its length in bytes
 * @cmd_line: kernel command line
 * @first_p2m_pfn: first frame of the initial P2M and page tables
 * @nr_p2m_frames: number of those frames
 */
struct start_info {
	char magic[32];
	unsigned long nr_pages;
	unsigned long shared_info;
	u32 flags;
	xen_pfn_t store_mfn;
	u32 store_evtchn;
	union {
		struct {
			xen_pfn_t mfn;
			u32 evtchn;
		} domU;
		struct {
			u32 info_off;
			u32 info_size;
		} dom0;
	} console;
	unsigned long pt_base;
	unsigned long nr_pt_frames;
	unsigned long mfn_list;
	unsigned long mod_start;
	unsigned long mod_len;
	s8 cmd_line[MAX_GUEST_CMDLINE];
	unsigned long first_p2m_pfn;
	unsigned long nr_p2m_frames;
};
#endif /* !__ASSEMBLY__ */

#endif /* _XEN_INTERFACE_XEN_H */
