// SPDX-License-Identifier: GPL-2.0
/*
 * xsbackend before|after: /dev/xen/xenbus_backend of a dom0 kernel, run
 * as root by dom0's init (rootfs/dom0-init) when the kernel's command
 * line has pvops.xsbackend=1.
 *
 * "before" runs before xenstored starts.  It checks that only root may
 * open the device, that the port it tells is xenfs's xsd_port, that its
 * page is xenfs's xsd_kva page, and that bad sizes, offsets, domain ids
 * and ioctls are refused.  Then it offers the ring to domain 0 itself
 * (IOCTL_XENBUS_BACKEND_SETUP), as init-xenstore-domain offers it to a
 * xenstore domain: the ring moves to a new port, which xsd_port must
 * then tell.  The xenstored that starts next binds that new port, so
 * the whole of dom0's toolstack afterwards runs over it.
 *
 * "after" runs once xenstored is up: the ring is taken, and a second
 * offer must be refused (EEXIST).
 *
 * One line each: "ok ..." or "FAIL <why>"; the exit status says the
 * same.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEV		"/dev/xen/xenbus_backend"
#define IOC_EVTCHN	_IOC(_IOC_NONE, 'B', 0, 0)
#define IOC_SETUP	_IOC(_IOC_NONE, 'B', 1, 0)
#define PAGE		4096

static const char *mode;

static void fail(const char *fmt, const char *what, long got)
{
	printf("%s FAIL ", mode);
	printf(fmt, what, got);
	printf("\n");
	exit(1);
}

static long xsd_port(void)
{
	char buf[32] = "";
	int fd = open("/proc/xen/xsd_port", O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		fail("%s: %ld", "cannot read /proc/xen/xsd_port", errno);
	close(fd);
	return strtol(buf, NULL, 10);
}

/* The ioctl's answer, or -errno. */
static long ioc(int fd, unsigned long cmd, unsigned long arg)
{
	long rc = ioctl(fd, cmd, arg);

	return rc < 0 ? -errno : rc;
}

/*
 * A user without CAP_SYS_ADMIN must not open it, even where the node's
 * mode would let him (0600 by default: opened for the while 0666).
 */
static void check_unprivileged(void)
{
	int status, fd;
	pid_t pid;

	if (chmod(DEV, 0666))
		fail("%s: errno %ld", "cannot chmod " DEV, errno);
	pid = fork();

	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		fd = open(DEV, O_RDWR);
		_exit(fd < 0 && errno == EPERM ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		fail("%s (%ld)", "unprivileged open: no child", 0);
	if (chmod(DEV, 0600))
		fail("%s: errno %ld", "cannot chmod " DEV " back", errno);
	if (WEXITSTATUS(status))
		fail("%s (child status %ld)",
		     "unprivileged open was not refused with EPERM",
		     WEXITSTATUS(status));
}

/* Bad mappings are refused; the good one is xenfs's page. */
static void check_mmap(int fd)
{
	int kva = open("/proc/xen/xsd_kva", O_RDWR);
	void *a, *b;

	if (kva < 0)
		fail("%s: errno %ld", "cannot open /proc/xen/xsd_kva", errno);
	a = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (a != MAP_FAILED || errno != EINVAL)
		fail("%s (errno %ld)", "a two-page mapping was not refused",
		     errno);
	a = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, PAGE);
	if (a != MAP_FAILED || errno != EINVAL)
		fail("%s (errno %ld)", "a mapping at offset 4096 was not refused",
		     errno);
	a = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	b = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, kva, 0);
	if (a == MAP_FAILED || b == MAP_FAILED)
		fail("%s (errno %ld)", "the ring's page cannot be mapped", errno);
	if (memcmp(a, b, PAGE))
		fail("%s (%ld)", "the device's page is not xsd_kva's", 0);
	munmap(a, PAGE);
	munmap(b, PAGE);
	close(kva);
}

static int run_before(int fd)
{
	long port = xsd_port(), rc, np;

	rc = ioc(fd, IOC_EVTCHN, 0);
	if (rc != port)
		fail("%s: %ld", "EVTCHN is not xsd_port's port", rc);
	check_mmap(fd);
	rc = ioc(fd, _IOC(_IOC_NONE, 'B', 2, 0), 0);
	if (rc != -ENOTTY)
		fail("%s: %ld", "an unknown ioctl was not refused with ENOTTY",
		     rc);
	rc = ioc(fd, IOC_SETUP, 0x7ff0);
	if (rc != -EINVAL)
		fail("%s: %ld", "SETUP of a reserved domain id (0x7ff0) gave",
		     rc);
	if (ioc(fd, IOC_EVTCHN, 0) != port)
		fail("%s: %ld", "a refused SETUP changed the port", xsd_port());
	np = ioc(fd, IOC_SETUP, 0);
	if (np <= 0 || np == port)
		fail("%s: %ld", "SETUP(0) gave no new port", np);
	if (xsd_port() != np)
		fail("%s: %ld", "xsd_port does not tell the new port",
		     xsd_port());
	if (ioc(fd, IOC_EVTCHN, 0) != np)
		fail("%s: %ld", "EVTCHN does not tell the new port",
		     ioc(fd, IOC_EVTCHN, 0));
	printf("before ok old_port=%ld new_port=%ld\n", port, np);
	return 0;
}

static int run_after(int fd)
{
	long rc = ioc(fd, IOC_SETUP, 0);

	if (rc != -EEXIST)
		fail("%s: %ld", "SETUP with xenstored connected gave", rc);
	if (ioc(fd, IOC_EVTCHN, 0) != xsd_port())
		fail("%s: %ld", "EVTCHN is not xsd_port's port",
		     ioc(fd, IOC_EVTCHN, 0));
	printf("after ok port=%ld\n", xsd_port());
	return 0;
}

int main(int argc, char **argv)
{
	int fd;

	mode = argc == 2 ? argv[1] : "";
	if (strcmp(mode, "before") && strcmp(mode, "after")) {
		fprintf(stderr, "usage: xsbackend before|after\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "before"))
		check_unprivileged();
	fd = open(DEV, O_RDWR);
	if (fd < 0)
		fail("%s: errno %ld", "cannot open " DEV, errno);
	return !strcmp(mode, "before") ? run_before(fd) : run_after(fd);
}
