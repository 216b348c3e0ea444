module tmapgen.example/go-client

go 1.19

// The versions Debian 12 packages (golang-google-grpc-dev, golang-google-protobuf-dev, ...): the example
// builds offline against /usr/share/gocode (tests/server/examples_test.py vendors it at test time).
require (
	google.golang.org/grpc v1.33.3
	google.golang.org/protobuf v1.28.1
)

require (
	github.com/golang/protobuf v1.5.2 // indirect
	golang.org/x/net v0.7.0 // indirect
	golang.org/x/sys v0.3.0 // indirect
	golang.org/x/text v0.7.0 // indirect
	google.golang.org/genproto v0.0.0-20200413115906-b5235f65be36 // indirect
)
