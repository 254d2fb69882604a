/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the hostile frontends (hostfe.c: a disk, hostnf.c: a vif) share:
 * xenstore through /dev/xen/xenbus, pages granted to the backend through
 * /dev/xen/gntalloc, an event channel through /dev/xen/evtchn.  Each
 * program is one file that includes this one.
 */
#ifndef HOSTFE_COMMON_H
#define HOSTFE_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xen/xen.h>
#include <xen/sys/evtchn.h>
#include <xen/sys/gntalloc.h>
#include <xen/io/xs_wire.h>

#define PAGE		4096
#define HDR		64	/* the shared ring's indexes and padding */

struct sring_head {
	uint32_t req_prod, req_event, rsp_prod, rsp_event;
};

static int xsfd, gafd, evfd;
static char dir[64], bedir[128];
static unsigned int bedom, port;

static void die(const char *fmt, const char *arg)
{
	printf("hostfe %s: FAILED: ", dir);
	printf(fmt, arg);
	printf("\n");
	fflush(stdout);
	exit(1);
}

/* One xenstore request; the reply's payload, NUL-terminated, in @out. */
static int xs(uint32_t type, const char *a, const char *b, char *out,
	      size_t outlen)
{
	char buf[4096];
	struct xsd_sockmsg m = { .type = type, .req_id = 7 };
	size_t la = strlen(a) + 1, lb = b ? strlen(b) : 0;

	memcpy(buf + sizeof(m), a, la);
	if (b)
		memcpy(buf + sizeof(m) + la, b, lb);
	m.len = la + lb;
	memcpy(buf, &m, sizeof(m));
	if (write(xsfd, buf, sizeof(m) + m.len) != (ssize_t)(sizeof(m) + m.len))
		return -1;
	for (;;) {
		if (read(xsfd, &m, sizeof(m)) != sizeof(m) || m.len >= sizeof(buf))
			return -1;
		if (m.len && read(xsfd, buf, m.len) != (ssize_t)m.len)
			return -1;
		buf[m.len] = 0;
		if (m.type == XS_WATCH_EVENT)
			continue;
		if (m.type == XS_ERROR)
			return -1;
		if (out)
			snprintf(out, outlen, "%s", buf);
		return 0;
	}
}

static int xs_read(const char *path, char *out, size_t len)
{
	return xs(XS_READ, path, NULL, out, len);
}

static void xs_write(const char *node, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, node);
	if (xs(XS_WRITE, path, val, NULL, 0))
		die("writing %s", path);
}

static unsigned int be_state(void)
{
	char path[256], v[32];

	snprintf(path, sizeof(path), "%s/state", bedir);
	return xs_read(path, v, sizeof(v)) ? 0 : atoi(v);
}

static void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void wait_state(unsigned int want)
{
	char s[16];
	int i;

	for (i = 0; i < 300; i++) {
		if (be_state() == want)
			return;
		msleep(100);
	}
	snprintf(s, sizeof(s), "%u", be_state());
	die("backend state %s, not the one waited for", s);
}

/* Grant @count pages to the backend; their grants in @grefs. */
static void *grant(unsigned int count, int writable, uint32_t *grefs,
		   uint64_t *index)
{
	struct ioctl_gntalloc_alloc_gref *a;
	void *p;

	a = calloc(1, sizeof(*a) + count * sizeof(uint32_t));
	a->domid = bedom;
	a->flags = writable ? GNTALLOC_FLAG_WRITABLE : 0;
	a->count = count;
	if (ioctl(gafd, IOCTL_GNTALLOC_ALLOC_GREF, a))
		die("gntalloc: %s", strerror(errno));
	p = mmap(NULL, count * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, gafd,
		 a->index);
	if (p == MAP_FAILED)
		die("mmap of granted pages: %s", strerror(errno));
	memcpy(grefs, a->gref_ids, count * sizeof(uint32_t));
	if (index)
		*index = a->index;
	free(a);
	return p;
}

static void evt_setup(void)
{
	struct ioctl_evtchn_bind_unbound_port b = { .remote_domain = bedom };
	int rc = ioctl(evfd, IOCTL_EVTCHN_BIND_UNBOUND_PORT, &b);

	if (rc < 0)
		die("binding a channel: %s", strerror(errno));
	port = rc;
}

static void kick(void)
{
	struct ioctl_evtchn_notify n = { .port = port };

	if (ioctl(evfd, IOCTL_EVTCHN_NOTIFY, &n))
		die("notify: %s", strerror(errno));
}

static inline void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static inline void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }

/* Open the devices and find the backend of device/@type/@id. */
static void common_open(const char *type, const char *id)
{
	char path[128], v[128];

	snprintf(dir, sizeof(dir), "device/%s/%s", type, id);
	xsfd = open("/dev/xen/xenbus", O_RDWR);
	gafd = open("/dev/xen/gntalloc", O_RDWR);
	evfd = open("/dev/xen/evtchn", O_RDWR);
	if (xsfd < 0 || gafd < 0 || evfd < 0)
		die("%s", "cannot open /dev/xen/xenbus, gntalloc or evtchn");
	snprintf(path, sizeof(path), "%s/backend", dir);
	if (xs_read(path, bedir, sizeof(bedir)))
		die("no %s", path);
	snprintf(path, sizeof(path), "%s/backend-id", dir);
	if (xs_read(path, v, sizeof(v)))
		die("no %s", path);
	bedom = atoi(v);
}

/* Remove nodes of ours: what a displaced frontend driver left. */
static void remove_nodes(const char *const *nodes, unsigned int n)
{
	char path[256];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, nodes[i]);
		xs(XS_RM, path, NULL, NULL, 0);
	}
}

#endif /* HOSTFE_COMMON_H */
