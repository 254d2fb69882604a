# SPDX-License-Identifier: GPL-2.0
#
# Benches: pairs of Debian domUs, ours and the reference.
# Sourced by run.sh, the job harness_job.make_job() writes for dom0.

# run_pairs net|io NAME TIMEOUT COUNT: COUNT pairs of run_debian_net or
# run_debian_io in bench mode, NAME-ours and NAME-ref (cfg files of
# those names), ours first in odd pairs and ref first in even ones, so
# that both kernels meet the same slow and fast spells of the emulator
# and neither always comes first.  A pair in which Xen saw a domU of
# either kernel triple-fault (the emulator flake the README describes)
# is dropped, said so with the domid, and its disk repaired; another
# pair takes its place, up to COUNT/2 (rounded up) dropped pairs.  Any
# other failure, or one more flake, ends the benchmark.
run_pairs() {
	pk=1 pdone=0 pdropped=0
	while [ $pdone -lt "$4" ]; do
		order="ours ref"
		[ $(((pdone + 1) % 2)) = 0 ] && order="ref ours"
		pok=1
		for kern in $order; do
			d=
			run_debian_$1 "$2-$kern" "$2-$kern.cfg" "$3" "a$pk" bench &&
				continue
			if [ -z "$d" ] || [ $pdropped -ge $((($4 + 1) / 2)) ] ||
			   ! xl dmesg | grep -q "d${d}v[0-9]* Triple fault"; then
				return 1
			fi
			say "domu $2 pair=$pk dropped kernel=$kern domid=$d triple-fault"
			debian_repair "$2"
			pdropped=$((pdropped + 1)) pok=0
			break
		done
		[ $pok = 1 ] && pdone=$((pdone + 1))
		pk=$((pk + 1))
	done
	say "domu $2 pairs done=$4 dropped=$pdropped"
}
