# SPDX-License-Identifier: GPL-2.0
"""dom0's job disk: the kernels, the domU configurations, dom0's shell
library (job/*.sh, sourced by run.sh) and run.sh, one line a scenario.
"""

import os
import shutil
import subprocess

from harness_common import HERE
from harness_scenarios import (
    BALLOON_GROW_TOUCH, BALLOON_HIGH, BALLOON_LOW, BALLOON_SLACK,
    BALLOON_TOUCH)

JOB = os.path.join(HERE, 'job')


# run.sh's head: dom0's shell library (job/*.sh), then a line every 30 s
# so that the harness can tell a machine that hangs from one that is only
# quiet (run_qemu's stall).  A line a scenario follows.
RUN_SH_HEAD = r'''
for lib in /job/sh/*.sh; do . "$lib"; done

(while sleep 30; do say "alive uptime=$(cut -d' ' -f1 /proc/uptime)"; done) &
alive=$!
'''


DEBIAN_CFG = '''type = "{type}"
kernel = "/job/kernels/{kernel}.bzImage"
extra = '{extra}'
memory = 512
vcpus = 2
tsc_mode = "native"
disk = ['format=raw, vdev=xvda, access=rw, script=/job/hotplug-block, target=/dev/vdc'{io_disk}]
{vif}on_poweroff = "destroy"
on_reboot = "{on_reboot}"
on_crash = "destroy"
'''


DOMU_CFG = '''type = "{type}"
kernel = "/job/kernels/{kernel}.bzImage"
ramdisk = "/job/guest.cpio.gz"
extra = "console=hvc0 loglevel=6 {cmdline}"
memory = 256
vcpus = 2
tsc_mode = "native"
on_poweroff = "destroy"
on_reboot = "{on_reboot}"
on_crash = "destroy"
'''


def alone_on_cpu1(cfg):
    """A domU config of DOMU_CFG's given one vCPU, pinned to CPU 1: dom0
    has CPU 0 (dom0_vcpus_pin), so nothing else runs there."""
    return cfg.replace('vcpus = 2\n', 'vcpus = 1\ncpus = "1"\n')


def job_tool(jobdir, name):
    """Build dom0's helper job/NAME.c into the job, once: dom0 runs it as
    /job/NAME."""
    exe = os.path.join(jobdir, name)
    if not os.path.exists(exe):
        subprocess.run(['gcc', '-static', '-O2', '-Wall', '-o', exe,
                        os.path.join(JOB, name + '.c')], check=True)


def make_job(jobdir, kernels, assets, domus):
    for sub in ('cfg', 'kernels', 'out'):
        os.makedirs(os.path.join(jobdir, sub), exist_ok=True)
    # dom0's init runs it before xenstored when told to (dom0_args).
    job_tool(jobdir, 'xsbackend')
    shutil.copy(os.path.join(assets, 'guest.cpio.gz'), jobdir)
    os.makedirs(os.path.join(jobdir, 'sh'), exist_ok=True)
    for sh in sorted(os.listdir(JOB)):
        if sh.endswith('.sh'):
            shutil.copy(os.path.join(JOB, sh), os.path.join(jobdir, 'sh'))
    script = [RUN_SH_HEAD]
    for s in domus:
        for k in (('ours', 'ref') if s.pairs else (s.kernel,)):
            dst = os.path.join(jobdir, 'kernels', k + '.bzImage')
            if not os.path.exists(dst):
                shutil.copy(kernels[k], dst)
        if s.debian:
            for h in ('hotplug-block', 'hotplug-vif'):
                shutil.copy(os.path.join(JOB, h), jobdir)
            extra = f'console=hvc0 root=/dev/xvda rw {s.cmdline}'
            if s.io or s.netio or s.destroy:
                extra += (' systemd.run="/bin/sh /dev/xvdb" '
                          'systemd.run_success_action=none '
                          'systemd.run_failure_action=none')
            cfgs = ({f'{s.name}-{k}': k for k in ('ours', 'ref')}
                    if s.pairs else {s.name: s.kernel})
            for cfg, kern in cfgs.items():
                with open(os.path.join(jobdir, 'cfg', cfg + '.cfg'),
                          'w') as f:
                    # Only debian-io reboots its domU (xl reboot).
                    # Anywhere else a reboot is a crash (a triple
                    # fault is one) and must not boot the disk again
                    # behind the script's back.
                    f.write(DEBIAN_CFG.format(
                        type=s.role, kernel=kern, extra=extra,
                        on_reboot='restart' if s.io and not (s.pairs or
                                                             s.bench)
                        else 'destroy',
                        io_disk=", 'format=raw, vdev=xvdb, access=ro, "
                        "script=/job/hotplug-block, target=/dev/loop7'"
                        if s.io or s.netio or s.destroy else '',
                        vif="vif = ['bridge=xenbr0, "
                        "script=/job/hotplug-vif']\n" if s.net else ''))
            if s.io or s.netio or s.destroy:
                what = 'io' if s.io else 'net' if s.netio else 'sync'
                with open(os.path.join(HERE, 'rootfs', f'debian-{what}.sh'),
                          'rb') as src:
                    body = src.read()
                with open(os.path.join(jobdir, f'{what}-script.img'),
                          'wb') as dst:
                    dst.write(body + bytes(65536 - len(body)))
                if s.destroy:
                    script.append(f'run_debian_destroy {s.name} '
                                  f'{s.name}.cfg {s.timeout} {s.destroy} '
                                  f'|| debian_repair {s.name}\n')
                    continue
                if s.pairs:
                    script.append(f'run_pairs {what} {s.name} {s.timeout} '
                                  f'{s.pairs} || debian_repair {s.name}\n')
                    continue
                script.append(f'run_debian_{what} {s.name} {s.name}.cfg '
                              f'{s.timeout}{" a1 bench" if s.bench else ""}'
                              f' || debian_repair {s.name}\n')
                continue
            if s.repeat:
                script.append(f'run_debian_repeat {s.name} {s.name}.cfg '
                              f'{s.timeout} {s.repeat} '
                              f'|| debian_repair {s.name}\n')
                continue
            script.append(f'run_debian {s.name} {s.name}.cfg {s.timeout}'
                          f'{"" if s.net else " nonet"} '
                          f'|| debian_repair {s.name}\n')
            continue
        if s.forkloop:
            # One vCPU pinned to CPU 1, the CPU xentrace watches.
            for loops in (0, s.forkloop):
                cfg = DOMU_CFG.format(type=s.role, kernel=s.kernel,
                                      cmdline=f'{s.cmdline} pvops.forkloop='
                                      f'{loops}' + (f' pvops.loopbench='
                                                    f'{s.loopbench}'
                                                    if s.loopbench else ''),
                                      on_reboot='destroy')
                cfg = alone_on_cpu1(cfg)
                with open(os.path.join(jobdir, 'cfg',
                                       f'{s.name}-{loops}.cfg'), 'w') as f:
                    f.write(cfg)
            script.append(f'run_hcalls {s.name} {s.timeout} {s.forkloop}\n')
            continue
        if s.micro:
            # The benchmark runs on its guest's CPU 0 anyway.
            for k in (('ours', 'ref') if s.pairs else (s.kernel,)):
                cfg = DOMU_CFG.format(type=s.role, kernel=k,
                                      cmdline=s.cmdline, on_reboot='destroy')
                cfg = alone_on_cpu1(cfg)
                with open(os.path.join(jobdir, 'cfg', f'{s.name}-{k}.cfg'
                                       if s.pairs else s.name + '.cfg'),
                          'w') as f:
                    f.write(cfg)
            script.append(f'run_micro_pairs {s.name} {s.timeout} {s.pairs}\n'
                          if s.pairs else f'run_domu {s.name} {s.name}.cfg '
                          f'{s.timeout} 0\n')
            continue
        if s.share:
            # Two senders with a vif each (job/share.sh, rootfs/blast.c).
            job_tool(jobdir, 'sink')
            shutil.copy(os.path.join(JOB, 'hotplug-vif'), jobdir)
            for g, streams, addr in (('a', 1, '169.254.1.1'),
                                     ('b', 8, '169.254.1.2')):
                cfg = DOMU_CFG.format(type=s.role, kernel=s.kernel,
                                      cmdline=f'{s.cmdline} pvops.blast='
                                      f'{streams}:{addr}',
                                      on_reboot='destroy')
                cfg += "vif = ['bridge=xenbr0, script=/job/hotplug-vif']\n"
                with open(os.path.join(jobdir, 'cfg', f'{s.name}-{g}.cfg'),
                          'w') as f:
                    f.write(cfg)
            script.append(f'run_share {s.name} {s.timeout}\n')
            continue
        if s.bigdestroy:
            # job/destroy.sh: dom0's longest stall while xl destroys it.
            cfg = DOMU_CFG.format(type=s.role, kernel=s.kernel,
                                  cmdline=f'{s.cmdline} pvops.control=1',
                                  on_reboot='destroy')
            with open(os.path.join(jobdir, 'cfg', s.name + '.cfg'), 'w') as f:
                f.write(cfg)
            script.append(f'run_destroy {s.name} {s.name}.cfg {s.timeout} '
                          f'{s.bigdestroy}\n')
            continue
        if s.grow or s.lend:
            # job/balloon.sh: a domU grown past its boot memory, or one
            # that needs what dom0 lends.
            touch = f' pvops.growtouch={BALLOON_GROW_TOUCH}' if s.grow else ''
            cfg = DOMU_CFG.format(type=s.role, kernel=s.kernel,
                                  cmdline=f'{s.cmdline} pvops.control=1'
                                  + touch, on_reboot='destroy')
            if s.grow:
                cfg = cfg.replace('memory = 256\n', 'memory = 512\n'
                                  f'maxmem = {s.grow}\n')
            with open(os.path.join(jobdir, 'cfg', s.name + '.cfg'), 'w') as f:
                f.write(cfg)
            script.append(f'run_balloon_grow {s.name} {s.name}.cfg '
                          f'{s.timeout} {s.grow} {BALLOON_GROW_TOUCH}\n'
                          if s.grow else f'run_dom0_balloon {s.name} '
                          f'{s.name}.cfg {s.timeout} {s.lend}\n')
            continue
        if s.balloon:
            # job/balloon.sh moves it; rootfs/memtouch.c keeps it busy.
            cfg = DOMU_CFG.format(type=s.role, kernel=s.kernel,
                                  cmdline=f'{s.cmdline} pvops.control=1 '
                                  f'pvops.memtouch={BALLOON_TOUCH}',
                                  on_reboot='destroy')
            cfg = cfg.replace('memory = 256\n', f'memory = {BALLOON_HIGH}\n'
                              f'maxmem = {BALLOON_HIGH}\n')
            with open(os.path.join(jobdir, 'cfg', s.name + '.cfg'), 'w') as f:
                f.write(cfg)
            cycles = os.environ.get('XEN_PVOPS_CYCLES', s.balloon)
            slack = BALLOON_SLACK.get((s.role, s.kernel), 0)
            script.append(f'run_balloon {s.name} {s.name}.cfg {s.timeout} '
                          f'{cycles} {BALLOON_LOW} {BALLOON_HIGH} {slack}\n')
            continue
        with open(os.path.join(jobdir, 'cfg', s.name + '.cfg'), 'w') as f:
            cmdline = s.cmdline + (f' pvops.clock={s.clock}' if s.clock else '')
            cmdline += (' pvops.control=1' if s.control or s.blkbad or
                        s.netbad or s.conflood else '')
            cmdline += ' pvops.xsbench=1' if s.xsbench else ''
            cmdline += ' pvops.hostfe=1' if s.hostfe else ''
            cmdline += ' pvops.hostnf=1' if s.hostnf else ''
            # printk.devkmsg=on: /dev/kmsg unthrottled, every line counts.
            cmdline += (f' pvops.crash={s.crash} printk.devkmsg=on'
                        if s.crash else '')
            cmdline += f' pvops.stall={s.stall}' if s.stall else ''
            cmdline += ' pvops.trickle=1' if s.trickle else ''
            f.write(DOMU_CFG.format(type=s.role, kernel=s.kernel,
                                    cmdline=cmdline,
                                    on_reboot='restart' if s.control
                                    else 'destroy'))
        if s.control:
            script.append(f'run_control {s.name} {s.name}.cfg {s.timeout}\n')
            continue
        if s.hostfe or s.hostnf:
            # The guest plays the frontend (rootfs/hostfe.c, hostnf.c);
            # dom0 gives it a disk or a vif a case (job/hostfe.sh).
            for h in ('hotplug-block', 'hotplug-vif'):
                shutil.copy(os.path.join(JOB, h), jobdir)
            for c in ('hostfe-cases', 'hostnf-cases'):
                shutil.copy(os.path.join(HERE, 'rootfs', c), jobdir)
            # Beside it, a guest whose disk and vif must be served
            # throughout (bystander_start).
            with open(os.path.join(jobdir, 'cfg', 'bystander.cfg'),
                      'w') as f:
                f.write(DOMU_CFG.format(type=s.role, kernel=s.kernel,
                                        cmdline='pvops.bystander='
                                        '169.254.0.3', on_reboot='destroy'))
            script.append(f'run_hostfe {s.name} {s.name}.cfg {s.timeout}'
                          f'{" vif" if s.hostnf else ""}\n')
            continue
        if s.devfuzz:
            # job/devfuzz.c against the paused domU (job/devfuzz.sh).
            job_tool(jobdir, 'devfuzz')
            script.append(f'run_devfuzz {s.name} {s.name}.cfg {s.timeout} '
                          f'{s.devfuzz}\n')
            continue
        if s.blkbad or s.netbad or s.trickle or s.conflood:
            # dom0's part of a hostile backend (job/hostile.c); the
            # suite's cases are job/hostile.sh.
            job_tool(jobdir, 'hostile')
        if s.memmap:
            # job/memmap.c sets the map of the paused domU (memmap_setup).
            job_tool(jobdir, 'memmap')
            script.append(f"memmap_map='{s.memmap}'\n")
            script.append(f'run_domu {s.name} {s.name}.cfg {s.timeout} '
                          f'{s.flake_retries} memmap_setup\n')
            continue
        if s.conflood:
            script.append(f'run_console_flood {s.name} {s.name}.cfg '
                          f'{s.timeout}\n')
            continue
        if s.survey:
            script.append(f'run_survey {s.name} {s.name}.cfg {s.timeout} '
                          f'{"vbd" if s.blkbad else "vif"} {s.cases}\n')
            continue
        if s.blkbad or s.netbad:
            script.append(f'run_bad {s.name} {s.name}.cfg {s.timeout} '
                          f'{"vbd" if s.blkbad else "vif"} '
                          f'{"survey" if s.survey else "-"} {s.cases}\n')
            continue
        if s.repeat:
            script.append(f'run_repeat {s.name} {s.name}.cfg {s.timeout} '
                          f'{s.repeat} {s.flake_retries}\n')
            continue
        if s.xbdev:
            # Pages for the KUnit case that maps dom0's grants.
            job_tool(jobdir, 'gntoffer')
        script.append(f'run_domu {s.name} {s.name}.cfg {s.timeout} '
                      f'{s.flake_retries}'
                      + (' xbtest_setup' if s.xbdev else '') + '\n')
    script.append('rc=$?\nkill $alive\nexit $rc\n')
    with open(os.path.join(jobdir, 'run.sh'), 'w') as f:
        f.write(''.join(script))
    size = sum(os.path.getsize(os.path.join(dp, n))
               for dp, _, ns in os.walk(jobdir) for n in ns) // (1 << 20) + 64
    img = jobdir + '.img'
    with open(img, 'wb') as f:     # mke2fs is quiet only about a file that exists
        f.truncate(size << 20)
    subprocess.run(['mke2fs', '-q', '-F', '-t', 'ext4', '-d', jobdir, img,
                    f'{size}M'], check=True)
    return img
