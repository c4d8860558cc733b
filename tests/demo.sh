#!/bin/bash
# The main job, in the test guest: two namespace hosts joined by veth, an rmp
# device on each, shown with the rdma tool and ibv_devinfo.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/hosts.sh"

modprobe rdma_rmp
hosts_pair h1 h2
rdma_in h1 link add rmp1 type rmp netdev eth0
rdma_in h2 link add rmp2 type rmp netdev eth0
sleep 1

show() { echo; echo "\$ $*"; "$@"; }
show rdma link show
show ip netns exec h1 ibv_devices
show ip netns exec h1 ibv_devinfo -v -d rmp1
show ip netns exec h2 ibv_devinfo -d rmp2
show rdma statistic show link rmp1/1
