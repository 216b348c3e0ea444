#!/bin/sh
# gen.sh PROTO_DIR: the Go stubs of tmapgen.proto, tmapd.proto (package tmapgen.v1 -> ./v1pb) and
# tmapd_v2.proto (tmapgen.v2 -> ./v2pb), with protoc, protoc-gen-go (APIv2, Debian: protoc-gen-go) and
# protoc-gen-go-grpc. The protos name no go_package: the M options give each file its Go import path.
set -eu
proto=${1:?usage: gen.sh PROTO_DIR}
mod=tmapgen.example/go-client
m="Mtmapgen.proto=$mod/v1pb,Mtmapd.proto=$mod/v1pb,Mtmapd_v2.proto=$mod/v2pb"
protoc -I "$proto" --go_out=. --go_opt="module=$mod,$m" --go-grpc_out=. --go-grpc_opt="module=$mod,$m" \
  tmapgen.proto tmapd.proto tmapd_v2.proto
