// Command go-client calls a tmapd server from Go with stubs generated from proto/ (docs/service.md). It
// validates two maps (one valid, one that breaks three rules of cuda.h) and prints one line per map, the
// same lines as examples/python-client/tmapd_client.py.
//
// Generate the stubs into v1pb/ and v2pb/ (Debian 12: protobuf-compiler, protoc-gen-go, protoc-gen-go-grpc;
// the protos name no go_package, so the M options place them), then build and run, from this directory:
//
//	sh gen.sh ../../proto
//	go run . 127.0.0.1:50051
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	pb "tmapgen.example/go-client/v1pb"
)

// spec builds a tiled f16 map for sm_90a. Every scalar field of TensorMapSpec is proto3 `optional`: the Go
// field is a pointer, nil when not set, so that a set zero (an enum's first value) is still sent.
func spec(dims, strides []uint64, box []uint32, swizzle pb.Swizzle) *pb.TensorMapSpec {
	return &pb.TensorMapSpec{
		Mode:           pb.Mode_TILED.Enum(),
		TensorDataType: pb.TensorDataType_CU_TENSOR_MAP_DATA_TYPE_FLOAT16.Enum(),
		TensorRank:     proto.Uint32(uint32(len(dims))),
		GlobalDim:      dims,
		GlobalStrides:  strides,
		BoxDim:         box,
		Swizzle:        swizzle.Enum(),
		Target:         proto.String("sm_90a"),
	}
}

func main() {
	address := "127.0.0.1:50051"
	if len(os.Args) > 1 {
		address = os.Args[1]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := grpc.DialContext(ctx, address, grpc.WithInsecure(), grpc.WithBlock())
	if err != nil {
		log.Fatalf("dial %s: %v", address, err)
	}
	defer conn.Close()
	client := pb.NewTmapdClient(conn)
	about, err := client.Describe(ctx, &pb.DescribeRequest{})
	if err != nil {
		log.Fatalf("Describe: %v", err)
	}
	fmt.Printf("server: tmapgen %s, services %s\n", about.GetVersion(), strings.Join(about.GetServices(), " "))
	maps := []struct {
		name string
		spec *pb.TensorMapSpec
	}{
		{"good", spec([]uint64{1024, 1024}, []uint64{2048}, []uint32{64, 64}, pb.Swizzle_CU_TENSOR_MAP_SWIZZLE_128B)},
		{"bad", spec([]uint64{500, 64}, []uint64{1000}, []uint32{3, 300}, pb.Swizzle_CU_TENSOR_MAP_SWIZZLE_64B)},
	}
	for _, m := range maps {
		if m.spec.Target == nil || m.spec.OobFill != nil {
			log.Fatalf("%s: optional fields lost their presence", m.name)
		}
		r, err := client.Validate(ctx, &pb.ValidateRequest{Spec: m.spec})
		if err != nil {
			log.Fatalf("Validate %s: %v", m.name, err)
		}
		if r.GetValid() {
			fmt.Printf("%s: valid for %s, %d transaction bytes\n", m.name, r.GetReport().GetTarget(),
				r.GetReport().GetDerived().GetTransactionBytes())
		} else {
			fmt.Printf("%s: INVALID for %s: %s\n", m.name, r.GetReport().GetTarget(), strings.Join(r.GetErrorRules(), ", "))
		}
	}
}
