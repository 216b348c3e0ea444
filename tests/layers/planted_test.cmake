# planted_test.cmake: layers_check must fail on a tree with violations planted into it. Copies the scanned
# folders of ROOT (and empty folders for the table's other rooms) under WORK, plants an include of the
# reports into the tensor-map core, of the service into the command line and of gRPC into the schema room,
# and requires layers_check to exit 1 naming each of the three.
#   cmake -DCHECK=layers_check -DTABLE=docs/layers.txt -DROOT=. -DWORK=dir -P planted_test.cmake
file(REMOVE_RECURSE ${WORK})
foreach(d src cli server python/ext tools kernels)
  get_filename_component(parent ${WORK}/${d} DIRECTORY)
  file(COPY ${ROOT}/${d} DESTINATION ${parent})
endforeach()
file(MAKE_DIRECTORY ${WORK}/proto ${WORK}/examples)
file(WRITE ${WORK}/src/tmap/planted_violation.h "#include \"src/tmap/types.h\"\n#include \"src/report/report.h\"\n")
file(APPEND ${WORK}/cli/common_flags.cc "\n#include \"server/engine.h\"\n")
file(APPEND ${WORK}/src/schema/spec_stream.cc "\n#include <grpcpp/grpcpp.h>\n")
execute_process(COMMAND ${CHECK} ${TABLE} ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "layers_check exited ${rc} on the planted tree; expected 1")
endif()
foreach(expected
    "src/tmap/planted_violation.h:2: tmap [^ ]+ includes \"src/report/report.h\" of room report, which room tmap may not include"
    "cli/common_flags.cc:[0-9]+: cli [^ ]+ includes \"server/engine.h\" of room server, which room cli may not include"
    "src/schema/spec_stream.cc:[0-9]+: schema [^ ]+ includes <grpcpp/grpcpp.h>, of library grpc, which room schema may not use"
    "layers_check: 3 violation")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "layers_check did not report: ${expected}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
