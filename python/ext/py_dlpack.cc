// py_dlpack.cc: reads the metadata of a DLPack capsule (tmapgen._tmapgen._dlpack_info), for for_tensor.
//
// The structures are the DLPack ABI (dlpack.h, v0.x "dltensor" and v1.x "dltensor_versioned" capsules),
// declared here from that header's documented layout. The capsule is only read: it is not renamed to
// "used_dltensor" and its deleter is not called, so the producer's capsule destructor releases the tensor
// when the capsule is dropped, exactly as for a capsule nobody consumed. No data is touched.
#include <nanobind/nanobind.h>

#include <cstdint>

#include "src/util/strings.h"

namespace nb = nanobind;

namespace tmapgen::py {
void BindDlpack(nb::module_& m);

namespace {

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor*);
};
struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned*);
  uint64_t flags;
  DLTensor dl_tensor;
};

}  // namespace

void BindDlpack(nb::module_& m) {
  m.def(
      "_dlpack_info",
      [](nb::handle capsule) {
        const DLTensor* t = nullptr;
        nb::dict d;
        if (PyCapsule_IsValid(capsule.ptr(), "dltensor_versioned")) {
          auto* mt = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor_versioned"));
          if (mt->version.major != 1)
            throw nb::value_error(StrCat("DLPack ", mt->version.major, ".", mt->version.minor,
                                         ": only major version 1 has a known layout").c_str());
          t = &mt->dl_tensor;
          d["version"] = nb::make_tuple(mt->version.major, mt->version.minor);
          d["flags"] = mt->flags;
        } else if (PyCapsule_IsValid(capsule.ptr(), "dltensor")) {
          t = &static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"))->dl_tensor;
          d["version"] = nb::make_tuple(0, 0);
          d["flags"] = 0;
        } else {
          throw nb::type_error("not a DLPack capsule (\"dltensor\" or \"dltensor_versioned\"), or one already consumed");
        }
        if (t->ndim < 0 || t->ndim > 64) throw nb::value_error(StrCat("DLPack tensor with ", t->ndim, " dimensions").c_str());
        d["data"] = reinterpret_cast<uintptr_t>(t->data);
        d["byte_offset"] = t->byte_offset;
        d["device_type"] = t->device.device_type;
        d["device_id"] = t->device.device_id;
        d["code"] = t->dtype.code;
        d["bits"] = t->dtype.bits;
        d["lanes"] = t->dtype.lanes;
        nb::list shape, strides;
        for (int32_t i = 0; i < t->ndim; ++i) shape.append(t->shape[i]);
        d["shape"] = nb::tuple(shape);
        if (t->strides != nullptr) {
          for (int32_t i = 0; i < t->ndim; ++i) strides.append(t->strides[i]);
          d["strides"] = nb::tuple(strides);
        } else {
          d["strides"] = nb::none();
        }
        return d;
      },
      nb::arg("capsule"),
      "The metadata of a DLPack capsule as a dict (data, byte_offset, device_type, device_id, code, bits,\n"
      "lanes, shape, strides in elements or None, version, flags). Internal: for_tensor uses it.");
}

}  // namespace tmapgen::py
