/* SPDX-License-Identifier: MIT */
/*
 * The para-virtual sound protocol (version 2): for each stream of a
 * guest's virtual sound card, a request ring (struct xensnd_req,
 * answered by struct xensnd_resp) and an event page the backend writes
 * the stream's position into (struct xensnd_evt at XENSND_IN_RING_OFFS).
 *
 * A stream's buffer is a set of pages the frontend grants; their grant
 * references travel in a page directory: granted pages each holding the
 * reference of the next such page and a run of the buffer's references
 * (include/xen/xen-front-pgdir-shbuf.h builds and reads it).
 *
 * Types and constants only; checked against Xen 4.17's public headers by
 * tools/testing/xen/abi.
 */
#ifndef _XEN_INTERFACE_IO_SNDIF_H
#define _XEN_INTERFACE_IO_SNDIF_H

#include <linux/types.h>
#include <xen/interface/grant_table.h>
#include <xen/interface/io/ring.h>

#define XENSND_PROTOCOL_VERSION		2

/* Sample formats: xensnd_open_req.pcm_format, bits of hw_param.formats. */
#define XENSND_PCM_FORMAT_S8			0
#define XENSND_PCM_FORMAT_U8			1
#define XENSND_PCM_FORMAT_S16_LE		2
#define XENSND_PCM_FORMAT_S16_BE		3
#define XENSND_PCM_FORMAT_U16_LE		4
#define XENSND_PCM_FORMAT_U16_BE		5
#define XENSND_PCM_FORMAT_S24_LE		6
#define XENSND_PCM_FORMAT_S24_BE		7
#define XENSND_PCM_FORMAT_U24_LE		8
#define XENSND_PCM_FORMAT_U24_BE		9
#define XENSND_PCM_FORMAT_S32_LE		10
#define XENSND_PCM_FORMAT_S32_BE		11
#define XENSND_PCM_FORMAT_U32_LE		12
#define XENSND_PCM_FORMAT_U32_BE		13
#define XENSND_PCM_FORMAT_F32_LE		14
#define XENSND_PCM_FORMAT_F32_BE		15
#define XENSND_PCM_FORMAT_F64_LE		16
#define XENSND_PCM_FORMAT_F64_BE		17
#define XENSND_PCM_FORMAT_IEC958_SUBFRAME_LE	18
#define XENSND_PCM_FORMAT_IEC958_SUBFRAME_BE	19
#define XENSND_PCM_FORMAT_MU_LAW		20
#define XENSND_PCM_FORMAT_A_LAW			21
#define XENSND_PCM_FORMAT_IMA_ADPCM		22
#define XENSND_PCM_FORMAT_MPEG			23
#define XENSND_PCM_FORMAT_GSM			24

/* xensnd_req.operation */
#define XENSND_OP_OPEN			0
#define XENSND_OP_CLOSE			1
#define XENSND_OP_READ			2
#define XENSND_OP_WRITE			3
#define XENSND_OP_SET_VOLUME		4
#define XENSND_OP_GET_VOLUME		5
#define XENSND_OP_MUTE			6
#define XENSND_OP_UNMUTE		7
#define XENSND_OP_TRIGGER		8
#define XENSND_OP_HW_PARAM_QUERY	9

/* xensnd_trigger_req.type */
#define XENSND_OP_TRIGGER_START		0
#define XENSND_OP_TRIGGER_PAUSE		1
#define XENSND_OP_TRIGGER_STOP		2
#define XENSND_OP_TRIGGER_RESUME	3

/* xensnd_evt.type */
#define XENSND_EVT_CUR_POS		0

/* xenstore: the device's name, and the nodes either end reads. */
#define XENSND_DRIVER_NAME		"vsnd"
#define XENSND_LIST_SEPARATOR		","
#define XENSND_FIELD_BE_VERSIONS	"versions"
#define XENSND_FIELD_FE_VERSION		"version"
#define XENSND_FIELD_VCARD_SHORT_NAME	"short-name"
#define XENSND_FIELD_VCARD_LONG_NAME	"long-name"
#define XENSND_FIELD_RING_REF		"ring-ref"
#define XENSND_FIELD_EVT_CHNL		"event-channel"
#define XENSND_FIELD_EVT_RING_REF	"evt-ring-ref"
#define XENSND_FIELD_EVT_EVT_CHNL	"evt-event-channel"
#define XENSND_FIELD_DEVICE_NAME	"name"
#define XENSND_FIELD_TYPE		"type"
#define XENSND_FIELD_STREAM_UNIQUE_ID	"unique-id"
#define XENSND_FIELD_CHANNELS_MIN	"channels-min"
#define XENSND_FIELD_CHANNELS_MAX	"channels-max"
#define XENSND_FIELD_SAMPLE_RATES	"sample-rates"
#define XENSND_FIELD_SAMPLE_FORMATS	"sample-formats"
#define XENSND_FIELD_BUFFER_SIZE	"buffer-size"

#define XENSND_STREAM_TYPE_PLAYBACK	"p"
#define XENSND_STREAM_TYPE_CAPTURE	"c"

/* The longest sample rate and format names in xenstore lists. */
#define XENSND_SAMPLE_RATE_MAX_LEN	11
#define XENSND_SAMPLE_FORMAT_MAX_LEN	24

/* The sample formats' names in xenstore. */
#define XENSND_PCM_FORMAT_S8_STR			"s8"
#define XENSND_PCM_FORMAT_U8_STR			"u8"
#define XENSND_PCM_FORMAT_S16_LE_STR			"s16_le"
#define XENSND_PCM_FORMAT_S16_BE_STR			"s16_be"
#define XENSND_PCM_FORMAT_U16_LE_STR			"u16_le"
#define XENSND_PCM_FORMAT_U16_BE_STR			"u16_be"
#define XENSND_PCM_FORMAT_S24_LE_STR			"s24_le"
#define XENSND_PCM_FORMAT_S24_BE_STR			"s24_be"
#define XENSND_PCM_FORMAT_U24_LE_STR			"u24_le"
#define XENSND_PCM_FORMAT_U24_BE_STR			"u24_be"
#define XENSND_PCM_FORMAT_S32_LE_STR			"s32_le"
#define XENSND_PCM_FORMAT_S32_BE_STR			"s32_be"
#define XENSND_PCM_FORMAT_U32_LE_STR			"u32_le"
#define XENSND_PCM_FORMAT_U32_BE_STR			"u32_be"
#define XENSND_PCM_FORMAT_F32_LE_STR			"float_le"
#define XENSND_PCM_FORMAT_F32_BE_STR			"float_be"
#define XENSND_PCM_FORMAT_F64_LE_STR			"float64_le"
#define XENSND_PCM_FORMAT_F64_BE_STR			"float64_be"
#define XENSND_PCM_FORMAT_IEC958_SUBFRAME_LE_STR	"iec958_subframe_le"
#define XENSND_PCM_FORMAT_IEC958_SUBFRAME_BE_STR	"iec958_subframe_be"
#define XENSND_PCM_FORMAT_MU_LAW_STR			"mu_law"
#define XENSND_PCM_FORMAT_A_LAW_STR			"a_law"
#define XENSND_PCM_FORMAT_IMA_ADPCM_STR			"ima_adpcm"
#define XENSND_PCM_FORMAT_MPEG_STR			"mpeg"
#define XENSND_PCM_FORMAT_GSM_STR			"gsm"

/**
 * struct xensnd_open_req - open a stream
 * @pcm_rate: samples a second
 * @pcm_format: XENSND_PCM_FORMAT_*
 * @pcm_channels: channels
 * @reserved: zero
 * @buffer_sz: bytes of the buffer
 * @gref_directory: the first page of the buffer's page directory
 * @period_sz: bytes between the backend's position events
 */
struct xensnd_open_req {
	u32 pcm_rate;
	u8 pcm_format;
	u8 pcm_channels;
	u16 reserved;
	u32 buffer_sz;
	grant_ref_t gref_directory;
	u32 period_sz;
};

/**
 * struct xensnd_rw_req - read or write part of the buffer
 * @offset: where it starts in the buffer
 * @length: bytes
 */
struct xensnd_rw_req {
	u32 offset;
	u32 length;
};

/**
 * struct xensnd_trigger_req - start, pause, stop or resume
 * @type: XENSND_OP_TRIGGER_*
 */
struct xensnd_trigger_req {
	u8 type;
};

/**
 * struct xensnd_query_hw_param - what a stream supports, or asks for
 * @formats: a bit for each XENSND_PCM_FORMAT_*
 * @rates: samples a second, the least and the most
 * @channels: the least and the most
 * @buffer: bytes of the buffer, the least and the most
 * @period: bytes of a period, the least and the most
 */
struct xensnd_query_hw_param {
	u64 formats;
	struct {
		u32 min;
		u32 max;
	} rates;
	struct {
		u32 min;
		u32 max;
	} channels;
	struct {
		u32 min;
		u32 max;
	} buffer;
	struct {
		u32 min;
		u32 max;
	} period;
};

/**
 * struct xensnd_cur_pos_evt - where the stream is
 * @position: bytes played or captured since it was opened
 */
struct xensnd_cur_pos_evt {
	u64 position;
};

/**
 * struct xensnd_req - a request
 * @id: the frontend's id, returned in the response
 * @operation: XENSND_OP_*
 * @reserved: zero
 * @op: the operation's arguments
 * @op.open: for XENSND_OP_OPEN
 * @op.rw: for XENSND_OP_READ, XENSND_OP_WRITE and the volume operations
 * @op.trigger: for XENSND_OP_TRIGGER
 * @op.hw_param: for XENSND_OP_HW_PARAM_QUERY, what the frontend asks for
 * @op.reserved: the union's size
 */
struct xensnd_req {
	u16 id;
	u8 operation;
	u8 reserved[5];
	union {
		struct xensnd_open_req open;
		struct xensnd_rw_req rw;
		struct xensnd_trigger_req trigger;
		struct xensnd_query_hw_param hw_param;
		u8 reserved[56];
	} op;
};

/**
 * struct xensnd_resp - a request's answer
 * @id: the request's id
 * @operation: the request's operation
 * @reserved: zero
 * @status: 0 or a negative errno
 * @resp: what the operation returns
 * @resp.hw_param: for XENSND_OP_HW_PARAM_QUERY, what the stream can do
 * @resp.reserved1: the union's size
 */
struct xensnd_resp {
	u16 id;
	u8 operation;
	u8 reserved;
	s32 status;
	union {
		struct xensnd_query_hw_param hw_param;
		u8 reserved1[56];
	} resp;
};

/**
 * struct xensnd_evt - an event of the backend's
 * @id: the event's number
 * @type: XENSND_EVT_*
 * @reserved: zero
 * @op: the event's data
 * @op.cur_pos: for XENSND_EVT_CUR_POS
 * @op.reserved: the union's size
 */
struct xensnd_evt {
	u16 id;
	u8 type;
	u8 reserved[5];
	union {
		struct xensnd_cur_pos_evt cur_pos;
		u8 reserved[56];
	} op;
};

DEFINE_RING_TYPES(xen_sndif, struct xensnd_req, struct xensnd_resp);

/**
 * struct xensnd_event_page - the head of the event page
 * @in_cons: events consumed by the frontend
 * @in_prod: events produced by the backend
 * @reserved: zero
 */
struct xensnd_event_page {
	u32 in_cons;
	u32 in_prod;
	u8 reserved[56];
};

#define XENSND_EVENT_PAGE_SIZE		4096
#define XENSND_IN_RING_OFFS		(sizeof(struct xensnd_event_page))
#define XENSND_IN_RING_SIZE		(XENSND_EVENT_PAGE_SIZE - XENSND_IN_RING_OFFS)
#define XENSND_IN_RING_LEN		(XENSND_IN_RING_SIZE / sizeof(struct xensnd_evt))
#define XENSND_IN_RING(page)						\
	((struct xensnd_evt *)((char *)(page) + XENSND_IN_RING_OFFS))
/* The event of free-running index @idx. */
#define XENSND_IN_RING_REF(page, idx)					\
	(XENSND_IN_RING(page)[(idx) % XENSND_IN_RING_LEN])

#endif /* _XEN_INTERFACE_IO_SNDIF_H */
