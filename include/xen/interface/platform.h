/* SPDX-License-Identifier: MIT */
/*
 * Platform operations of the hardware domain: HYPERVISOR_platform_op.
 *
 * Only what dom0 uses so far: the machine's processors as Xen knows
 * them, and the processor capability bits dom0's ACPI code hands the
 * firmware (_PDC / _OSC), which Xen decides since it drives the
 * processors' power states.
 */
#ifndef _XEN_INTERFACE_PLATFORM_H
#define _XEN_INTERFACE_PLATFORM_H

#include <xen/interface/xen.h>

/* struct xen_platform_op.interface_version: this ABI's. */
#define XENPF_INTERFACE_VERSION		0x03000001

/* Give Xen a processor's power management data; here only XEN_PM_PDC. */
#define XENPF_set_processor_pminfo	54
/* set_pminfo.type: the capability bits of _PDC, sanitized in place. */
#define XEN_PM_PDC			3

/* A physical CPU as Xen numbers it: present, online, its ids. */
#define XENPF_get_cpuinfo		55
#define XEN_PCPU_FLAGS_ONLINE		1
#define XEN_PCPU_FLAGS_INVALID		2

/**
 * struct xen_pct_register - an ACPI generic register (_PCT)
 * @descriptor: resource descriptor type
 * @length: its length
 * @space_id: address space
 * @bit_width: register width
 * @bit_offset: offset in it
 * @reserved: zero
 * @address: the register's address
 */
struct xen_pct_register {
	u8 descriptor;
	u16 length;
	u8 space_id;
	u8 bit_width;
	u8 bit_offset;
	u8 reserved;
	u64 address;
};

/**
 * struct xen_psd_package - a processor's P-state dependency (_PSD)
 * @num_entries: entries of the package
 * @revision: its revision
 * @domain: the dependency domain
 * @coord_type: how the domain's CPUs coordinate
 * @num_processors: CPUs in the domain
 */
struct xen_psd_package {
	u64 num_entries;
	u64 revision;
	u64 domain;
	u64 coord_type;
	u64 num_processors;
};

/**
 * struct xen_processor_performance - a processor's P-states (unused here:
 *	it gives the size of struct xenpf_set_processor_pminfo's union)
 * @flags: which of the fields below are given
 * @platform_limit: _PPC
 * @control_register: _PCT's control register
 * @status_register: _PCT's status register
 * @state_count: entries of @states
 * @states: the P-states
 * @domain_info: _PSD
 * @shared_type: coordination type
 */
struct xen_processor_performance {
	u32 flags;
	u32 platform_limit;
	struct xen_pct_register control_register;
	struct xen_pct_register status_register;
	u32 state_count;
	void *states;
	struct xen_psd_package domain_info;
	u32 shared_type;
};

/**
 * struct xenpf_set_processor_pminfo - argument of XENPF_set_processor_pminfo
 * @id: the processor's ACPI id; -1 for the boot processor
 * @type: XEN_PM_PDC
 * @u: per @type
 * @u.perf: P-states (not used by this kernel)
 * @u.pdc: XEN_PM_PDC: three words, the revision (1), their count (at
 *	least 1) and the capability bits, which Xen rewrites
 */
struct xenpf_set_processor_pminfo {
	u32 id;
	u32 type;
	union {
		struct xen_processor_performance perf;
		u32 *pdc;
	} u;
};

/**
 * struct xenpf_pcpuinfo - argument of XENPF_get_cpuinfo
 * @xen_cpuid: in: Xen's number of the CPU
 * @max_present: out: the highest number of a present CPU
 * @flags: out: XEN_PCPU_FLAGS_*
 * @apic_id: out: its APIC id
 * @acpi_id: out: its ACPI processor id
 */
struct xenpf_pcpuinfo {
	u32 xen_cpuid;
	u32 max_present;
	u32 flags;
	u32 apic_id;
	u32 acpi_id;
};

/**
 * struct xen_platform_op - argument of HYPERVISOR_platform_op
 * @cmd: XENPF_*
 * @interface_version: XENPF_INTERFACE_VERSION
 * @u: per @cmd
 * @u.set_pminfo: XENPF_set_processor_pminfo
 * @u.pcpu_info: XENPF_get_cpuinfo
 * @u.pad: the union's size
 */
struct xen_platform_op {
	u32 cmd;
	u32 interface_version;
	union {
		struct xenpf_set_processor_pminfo set_pminfo;
		struct xenpf_pcpuinfo pcpu_info;
		u8 pad[128];
	} u;
};

#endif /* _XEN_INTERFACE_PLATFORM_H */
