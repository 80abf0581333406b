// TF_Buffer (tensorflow/c/tf_buffer.h): bytes with the function that frees them.
#include "tensorflow/c/tf_buffer.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "c_api/c_api_internal.h"

namespace {

void FreeBufferBytes(void* data, size_t) { std::free(data); }

// Memory for `length` bytes that std::free releases; a zero-length buffer still gets a
// distinct pointer, as TensorFlow's do.
void* AllocateBufferBytes(size_t length) { return std::malloc(length == 0 ? 1 : length); }

}  // namespace

extern "C" {

TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len) {
  void* copy = AllocateBufferBytes(proto_len);
  if (copy == nullptr) return nullptr;
  if (proto_len > 0) std::memcpy(copy, proto, proto_len);
  TF_Buffer* buffer = TF_NewBuffer();
  buffer->data = copy;
  buffer->length = proto_len;
  buffer->data_deallocator = FreeBufferBytes;
  return buffer;
}

TF_Buffer* TF_NewBuffer(void) { return new TF_Buffer{nullptr, 0, nullptr}; }

void TF_DeleteBuffer(TF_Buffer* buffer) {
  if (buffer == nullptr) return;
  if (buffer->data_deallocator != nullptr) {
    buffer->data_deallocator(const_cast<void*>(buffer->data), buffer->length);
  }
  delete buffer;
}

TF_Buffer TF_GetBuffer(TF_Buffer* buffer) { return *buffer; }

}  // extern "C"

namespace sluice {
namespace c_api {

bool ParseFromBytes(const void* data, size_t len, google::protobuf::MessageLite* message) {
  if (len > static_cast<size_t>(std::numeric_limits<int>::max())) return false;
  if (data == nullptr) return len == 0 && message->ParseFromArray("", 0);
  return message->ParseFromArray(data, static_cast<int>(len));
}

absl::Status MessageToBuffer(const google::protobuf::MessageLite& message, TF_Buffer* out) {
  if (out == nullptr) return absl::InvalidArgumentError("The output TF_Buffer is null.");
  if (out->data != nullptr) {
    return absl::InvalidArgumentError("Passing non-empty TF_Buffer is invalid.");
  }
  const size_t size = message.ByteSizeLong();
  void* bytes = AllocateBufferBytes(size);
  if (bytes == nullptr) return absl::ResourceExhaustedError("Out of memory for a TF_Buffer.");
  if (!message.SerializeWithCachedSizesToArray(static_cast<uint8_t*>(bytes))) {
    std::free(bytes);
    return absl::InternalError("Failed to serialize the protocol buffer.");
  }
  out->data = bytes;
  out->length = size;
  out->data_deallocator = FreeBufferBytes;
  return absl::OkStatus();
}

}  // namespace c_api
}  // namespace sluice
