// The StableIValue encoding, the same on both sides of the ABI as libtorch's
// from_ivalue/to_ivalue: Tensor = an owning AtenTensorHandle; int/float/bool =
// their bits; ScalarType/Layout/MemoryFormat = the shim's int32 code; Device =
// index in the low 32 bits and device type in the high 32; T? = nullptr or a
// pointer to a heap StableIValue; T[] = an owning StableListHandle; str = an
// owning StringHandle. Encoding creates handles the receiver owns; decoding
// takes ownership of (releases) the handles it reads.
#pragma once

#include <string>

#include "analyzers/runtime/shim/abi_types.h"
#include "analyzers/runtime/shim/value.h"

namespace torchabi::runtime {

// `origin` names the value in later messages ("argument 'x' of myops::add").
// Throws std::invalid_argument when `v` does not fit `t`.
StableIValue encode(const Value& v, const TypeDesc& t, const std::string& origin);

// Reads a slot written by the other side. On success `out` holds the value and
// the handles it referenced are released by `consumer`; on failure `problem`
// says what the slot holds instead ("0x2a, which is not a tensor handle").
bool decode(StableIValue bits, const TypeDesc& t, const char* consumer, Value& out, std::string& problem);

// Reads 8 bytes at `address` without crashing when it is not mapped.
bool safe_read_u64(uint64_t address, uint64_t& out);

std::string to_hex(uint64_t bits);

}  // namespace torchabi::runtime
