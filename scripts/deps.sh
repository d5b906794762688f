#!/usr/bin/env bash
# Install the Debian packages the build and the tests need, only those missing.
# Fast (a few dpkg queries) when everything is present, so every make target can call it.
set -euo pipefail
packages=(
  make gcc pkg-config
  gcc-riscv64-linux-gnu libc6-dev-riscv64-cross binutils-riscv64-linux-gnu
  libelf-dev libdw-dev zlib1g-dev libjansson-dev libinih-dev libcriterion-dev
  qemu-user gnuplot-nox python3
  g++-riscv64-linux-gnu dpkg-dev tcl file
  slurmctld slurmd slurm-client munge
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
