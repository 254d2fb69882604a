/* SPDX-License-Identifier: MIT */
/*
 * The virtual TPM protocol: one granted page shared with the vTPM
 * domain.  The frontend puts a command after the page's header (and
 * after the grant references of extra pages, if it gives any), sets
 * @length and the state SUBMIT, and notifies; the backend writes the
 * answer in the same place and sets FINISH.
 *
 * Linux calls the page and its states vtpm_*, Xen tpmif_*: the layout
 * and the values are Xen's, and tools/testing/xen/abi compares them
 * under Xen's names.
 */
#ifndef _XEN_INTERFACE_IO_TPMIF_H
#define _XEN_INTERFACE_IO_TPMIF_H

#include <linux/types.h>

/**
 * enum vtpm_shared_page_state - whose turn it is
 * @VTPM_STATE_IDLE: nothing asked, or a cancel has been carried out
 * @VTPM_STATE_SUBMIT: a command waits for the backend
 * @VTPM_STATE_FINISH: the answer is in the page
 * @VTPM_STATE_CANCEL: the frontend asks the backend to drop the command
 */
enum vtpm_shared_page_state {
	VTPM_STATE_IDLE,
	VTPM_STATE_SUBMIT,
	VTPM_STATE_FINISH,
	VTPM_STATE_CANCEL,
};

/**
 * struct vtpm_shared_page - the shared page's header
 * @length: bytes of the command, then of the answer
 * @state: an enum vtpm_shared_page_state
 * @locality: the TPM locality of the command
 * @pad: zero
 * @nr_extra_pages: how many references follow
 * @extra_pages: grant references of further pages, for long messages
 */
struct vtpm_shared_page {
	u32 length;
	u8 state;
	u8 locality;
	u8 pad;
	u8 nr_extra_pages;
	u32 extra_pages[];
};

#endif /* _XEN_INTERFACE_IO_TPMIF_H */
