// SPDX-License-Identifier: GPL-2.0
/*
 * ringbad: play a misbehaving backend on one shared ring, from dom0.
 *
 *   ringbad DOMID GREF PORT ENTRY_BYTES HEX
 *
 * Maps the one-page ring that domain DOMID granted as GREF (through
 * /dev/xen/gntdev), waits up to 30 s for the frontend's first request,
 * writes the bytes HEX as the response in the next response slot (an
 * entry being ENTRY_BYTES long), publishes it and kicks event channel
 * PORT of DOMID (through /dev/xen/evtchn).  The harness uses it to hand
 * a frontend a response it must refuse.  The ring layout is Xen's
 * public io/ring.h: four 32-bit indexes, padding to 64 bytes, then a
 * power-of-two number of entries.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xen/xen.h>		/* domid_t, for evtchn.h */
#include <xen/sys/evtchn.h>
#include <xen/sys/gntdev.h>

#define PAGE		4096
#define RING_HEADER	64

struct sring_head {
	uint32_t req_prod, req_event, rsp_prod, rsp_event;
};

static void die(const char *what)
{
	fprintf(stderr, "ringbad: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long arg(const char *s, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "ringbad: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct ioctl_gntdev_map_grant_ref map = { .count = 1 };
	struct ioctl_evtchn_bind_interdomain bind;
	struct ioctl_evtchn_notify notify;
	unsigned char rsp[PAGE];
	unsigned int entry, nr, slot, len, i;
	struct sring_head *head;
	int gnt, evt, port, t;
	uint32_t prod;
	char *ring;

	if (argc != 6) {
		fprintf(stderr, "usage: ringbad DOMID GREF PORT ENTRY_BYTES HEX\n");
		return 2;
	}
	map.refs[0].domid = arg(argv[1], "domain");
	map.refs[0].ref = arg(argv[2], "grant");
	bind.remote_domain = map.refs[0].domid;
	bind.remote_port = arg(argv[3], "port");
	entry = arg(argv[4], "entry size");
	len = strlen(argv[5]) / 2;
	if (!entry || entry > PAGE - RING_HEADER || len > entry ||
	    strlen(argv[5]) % 2) {
		fprintf(stderr, "ringbad: entry size or response does not fit\n");
		return 2;
	}
	for (i = 0; i < len; i++)
		if (sscanf(argv[5] + 2 * i, "%2hhx", &rsp[i]) != 1) {
			fprintf(stderr, "ringbad: bad hex '%s'\n", argv[5]);
			return 2;
		}
	for (nr = 1; nr * 2 * entry <= PAGE - RING_HEADER; nr *= 2)
		;

	gnt = open("/dev/xen/gntdev", O_RDWR);
	if (gnt < 0)
		die("/dev/xen/gntdev");
	if (ioctl(gnt, IOCTL_GNTDEV_MAP_GRANT_REF, &map))
		die("mapping the grant");
	ring = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, gnt,
		    map.index);
	if (ring == MAP_FAILED)
		die("mmap of the ring");
	head = (struct sring_head *)ring;

	for (t = 0; !__atomic_load_n(&head->req_prod, __ATOMIC_ACQUIRE); t++) {
		if (t == 300) {
			fprintf(stderr, "ringbad: no request in 30 s\n");
			return 1;
		}
		usleep(100000);
	}
	prod = __atomic_load_n(&head->rsp_prod, __ATOMIC_ACQUIRE);
	slot = prod & (nr - 1);
	memcpy(ring + RING_HEADER + slot * entry, rsp, len);
	/* The response, then its index. */
	__atomic_store_n(&head->rsp_prod, prod + 1, __ATOMIC_SEQ_CST);

	evt = open("/dev/xen/evtchn", O_RDWR);
	if (evt < 0)
		die("/dev/xen/evtchn");
	port = ioctl(evt, IOCTL_EVTCHN_BIND_INTERDOMAIN, &bind);
	if (port < 0)
		die("binding the event channel");
	notify.port = port;
	if (ioctl(evt, IOCTL_EVTCHN_NOTIFY, &notify))
		die("notifying");
	printf("ringbad: domain %u grant %u: response %s in slot %u of %u\n",
	       map.refs[0].domid, map.refs[0].ref, argv[5], slot, nr);
	printf("ringbad: rsp_prod now %u, port %u kicked\n", prod + 1,
	       bind.remote_port);
	/* Leave the ring mapped while the frontend reacts. */
	sleep(2);
	return 0;
}
