// Tests the TF_TString layout byte by byte against hand-built representations, and the
// ownership rules of the inline functions (who frees what, what is copied and what is viewed).
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/tf_file_statistics.h"
#include "tensorflow/c/tf_tstring.h"

namespace {

static_assert(TF_TSTRING_LITTLE_ENDIAN, "the expected bytes below are little-endian");

using Bytes = std::vector<uint8_t>;

Bytes BytesOf(const TF_TString& s) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(&s);
  return Bytes(p, p + sizeof(s));
}

void PutWord(Bytes* bytes, size_t at, uint64_t value, size_t width) {
  for (size_t i = 0; i < width; ++i) (*bytes)[at + i] = static_cast<uint8_t>(value >> (8 * i));
}

uint64_t Word(const TF_TString& s, size_t at) {
  uint64_t value;
  std::memcpy(&value, reinterpret_cast<const uint8_t*>(&s) + at, sizeof(value));
  return value;
}

std::string Contents(const TF_TString& s) {
  return std::string(TF_TString_GetDataPointer(&s), TF_TString_GetSize(&s));
}

// Bytes in use by malloc, to see a LARGE buffer come and go. The buffers measured are larger
// than glibc's per-thread cache takes (about 1 KiB), which would still count freed blocks.
size_t HeapInUse() { return mallinfo2().uordblks; }

// Whether HeapInUse follows allocations. Under the sanitizers, which replace malloc, it reads 0;
// their leak checker then covers what these checks would.
bool HeapIsMeasurable() {
  static void* volatile block;  // keeps the compiler from eliding the allocation
  const size_t before = HeapInUse();
  block = std::malloc(5000);
  const size_t during = HeapInUse();
  std::free(block);
  return during >= before + 5000;
}

// An owner that counts its references.
struct CountingOwner {
  TStringOwnerCApi api;
  int refs;
};
void Ref(TStringOwnerCApi* self) { ++reinterpret_cast<CountingOwner*>(self->obj)->refs; }
bool Unref(TStringOwnerCApi* self) {
  return --reinterpret_cast<CountingOwner*>(self->obj)->refs == 0;
}
void InitOwner(CountingOwner* owner) {
  owner->api.ref = Ref;
  owner->api.unref = Unref;
  owner->api.obj = owner;
  owner->refs = 1;  // the owner's own reference
}

TEST(TStringLayout, SizesAndOffsets) {
  EXPECT_EQ(sizeof(TF_TString), 24u);
  EXPECT_EQ(TF_TString_SmallCapacity, 22);
  EXPECT_EQ(offsetof(TF_TString, u), 0u);
  EXPECT_EQ(offsetof(TF_TString_Small, str), 1u);
  EXPECT_EQ(offsetof(TF_TString_Large, cap), 8u);
  EXPECT_EQ(offsetof(TF_TString_Large, ptr), 16u);
  EXPECT_EQ(offsetof(TF_TString_Offset, offset), 4u);
  EXPECT_EQ(offsetof(TF_TString_Offset, count), 8u);
  EXPECT_EQ(offsetof(TF_TString_View, ptr), 8u);
  EXPECT_EQ(offsetof(TF_TString_View, owner_ref), 16u);
}

TEST(TStringLayout, SizeEncoding) {
  EXPECT_EQ(TF_TString_ToInternalSizeT(5, TF_TSTR_LARGE), (5u << 2) | 1u);
  EXPECT_EQ(TF_TString_ToInternalSizeT(1000, TF_TSTR_VIEW), (1000u << 2) | 3u);
  EXPECT_EQ(TF_TString_ToActualSizeT((1000u << 2) | 3u), 1000u);
  EXPECT_EQ(TF_align16(0), 0u);
  EXPECT_EQ(TF_align16(1), 16u);
  EXPECT_EQ(TF_align16(16), 16u);
  EXPECT_EQ(TF_align16(17), 32u);
}

TEST(TStringLayout, InitIsAllZeroSmall) {
  TF_TString s;
  std::memset(&s, 0xAB, sizeof(s));
  TF_TString_Init(&s);
  EXPECT_EQ(BytesOf(s), Bytes(24, 0));
  EXPECT_EQ(TF_TString_GetType(&s), TF_TSTR_SMALL);
  EXPECT_EQ(TF_TString_GetSize(&s), 0u);
  EXPECT_EQ(TF_TString_GetCapacity(&s), 22u);
}

TEST(TStringLayout, SmallBytes) {
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "hello", 5);
  Bytes expected(24, 0);
  expected[0] = 5 << 2;  // size << 2 | TF_TSTR_SMALL
  std::memcpy(&expected[1], "hello", 5);
  expected[6] = '\0';
  EXPECT_EQ(BytesOf(s), expected);
  EXPECT_EQ(TF_TString_GetDataPointer(&s), reinterpret_cast<const char*>(&s) + 1);
  TF_TString_Dealloc(&s);
}

TEST(TStringLayout, TwentyTwoBytesStaySmallTwentyThreeGoLarge) {
  const std::string text(23, 'q');
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, text.data(), 22);
  EXPECT_EQ(TF_TString_GetType(&s), TF_TSTR_SMALL);
  EXPECT_EQ(BytesOf(s)[0], 22 << 2);
  EXPECT_EQ(BytesOf(s)[23], 0);  // the NUL fills the last byte
  TF_TString_Copy(&s, text.data(), 23);
  EXPECT_EQ(TF_TString_GetType(&s), TF_TSTR_LARGE);
  EXPECT_EQ(Contents(s), text);
  TF_TString_Dealloc(&s);
}

TEST(TStringLayout, LargeBytes) {
  const std::string text(40, 'L');
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, text.data(), text.size());
  ASSERT_EQ(TF_TString_GetType(&s), TF_TSTR_LARGE);
  const char* data = TF_TString_GetDataPointer(&s);
  Bytes expected(24, 0);
  PutWord(&expected, 0, (40u << 2) | TF_TSTR_LARGE, 8);
  PutWord(&expected, 8, 47, 8);  // capacity 16k - 1 >= 40
  PutWord(&expected, 16, reinterpret_cast<uintptr_t>(data), 8);
  EXPECT_EQ(BytesOf(s), expected);
  EXPECT_EQ(TF_TString_GetCapacity(&s), 47u);
  EXPECT_EQ(Contents(s), text);
  EXPECT_EQ(data[40], '\0');
  TF_TString_Dealloc(&s);
}

TEST(TStringOwnership, LargeBufferIsHeapMemoryFreedByDealloc) {
  const std::string text(5000, 'h');
  TF_TString s;
  TF_TString_Init(&s);
  // Measured with nothing else in between (gtest's assertions may allocate).
  const size_t before = HeapInUse();
  TF_TString_Copy(&s, text.data(), text.size());
  const size_t during = HeapInUse();
  const size_t usable = malloc_usable_size(s.u.large.ptr);
  const size_t capacity = TF_TString_GetCapacity(&s);
  const TF_TString_Type type = TF_TString_GetType(&s);
  TF_TString_Dealloc(&s);
  const size_t after = HeapInUse();
  EXPECT_EQ(type, TF_TSTR_LARGE);
  EXPECT_GE(usable, capacity + 1);  // a malloc'd block of at least capacity + 1 bytes
  if (HeapIsMeasurable()) {
    EXPECT_GE(during, before + 5001);
    EXPECT_EQ(after, before);
  }
  EXPECT_EQ(BytesOf(s), Bytes(24, 0));
}

TEST(TStringOwnership, ShrinkingToSmallFreesTheBuffer) {
  const std::string text(5000, 's');
  TF_TString s;
  TF_TString_Init(&s);
  const size_t before = HeapInUse();
  TF_TString_Copy(&s, text.data(), text.size());
  TF_TString_Resize(&s, 3, '?');
  const size_t after = HeapInUse();
  if (HeapIsMeasurable()) {
    EXPECT_EQ(after, before);
  }
  EXPECT_EQ(TF_TString_GetType(&s), TF_TSTR_SMALL);
  EXPECT_EQ(Contents(s), "sss");
}

TEST(TStringOwnership, DeallocLeavesSmallAlone) {
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, "abc", 3);
  const Bytes bytes = BytesOf(s);
  TF_TString_Dealloc(&s);
  EXPECT_EQ(BytesOf(s), bytes);
}

TEST(TStringLayout, ViewBytesAndNoCopy) {
  static const char kBuffer[] = "the viewed buffer, longer than twenty-two bytes";
  TF_TString s;
  TF_TString_Init(&s);
  const size_t before = HeapInUse();
  TF_TString_AssignView(&s, kBuffer, 30);
  const size_t after = HeapInUse();
  EXPECT_EQ(after, before);
  Bytes expected(24, 0);
  PutWord(&expected, 0, (30u << 2) | TF_TSTR_VIEW, 8);
  PutWord(&expected, 8, reinterpret_cast<uintptr_t>(kBuffer), 8);
  EXPECT_EQ(BytesOf(s), expected);  // owner_ref (bytes 16..23) is NULL
  EXPECT_EQ(TF_TString_GetType(&s), TF_TSTR_VIEW);
  EXPECT_EQ(TF_TString_GetDataPointer(&s), kBuffer);
  EXPECT_EQ(TF_TString_GetSize(&s), 30u);
  EXPECT_EQ(TF_TString_GetCapacity(&s), 0u);
  // Dealloc of an unowned view leaves it as it is.
  TF_TString_Dealloc(&s);
  EXPECT_EQ(BytesOf(s), expected);
}

TEST(TStringOwnership, WritingToAViewCopiesIt) {
  char buffer[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_AssignView(&s, buffer, 30);
  char* writable = TF_TString_GetMutableDataPointer(&s);
  EXPECT_EQ(TF_TString_GetType(&s), TF_TSTR_LARGE);
  EXPECT_NE(writable, buffer);
  writable[0] = '#';
  EXPECT_EQ(buffer[0], '0');
  EXPECT_EQ(Contents(s), "#123456789abcdefghijklmnopqrst");
  TF_TString_Dealloc(&s);

  TF_TString_AssignView(&s, buffer, 5);
  TF_TString_AppendN(&s, "!", 1);
  EXPECT_EQ(TF_TString_GetType(&s), TF_TSTR_SMALL);
  EXPECT_EQ(Contents(s), "01234!");
  EXPECT_EQ(std::string(buffer, 6), "012345");
  TF_TString_Dealloc(&s);
}

// An OFFSET string as a mapped string tensor holds it: the bytes follow the TF_TString array.
struct OffsetBlock {
  TF_TString str;
  char data[40];
};

void MakeOffset(OffsetBlock* block, const char* text, uint32_t size) {
  Bytes bytes(24, 0);
  PutWord(&bytes, 0, (size << 2) | TF_TSTR_OFFSET, 4);
  PutWord(&bytes, 4, offsetof(OffsetBlock, data), 4);  // from the TF_TString's own address
  PutWord(&bytes, 8, 1, 4);
  std::memcpy(&block->str, bytes.data(), 24);
  std::memcpy(block->data, text, size);
}

TEST(TStringLayout, OffsetReadsRelativeToItsOwnAddress) {
  OffsetBlock block;
  MakeOffset(&block, "offset string of thirty bytes!", 30);
  EXPECT_EQ(TF_TString_GetType(&block.str), TF_TSTR_OFFSET);
  EXPECT_EQ(TF_TString_GetSize(&block.str), 30u);
  EXPECT_EQ(TF_TString_GetCapacity(&block.str), 0u);
  EXPECT_EQ(TF_TString_GetDataPointer(&block.str), block.data);
  EXPECT_EQ(Contents(block.str), "offset string of thirty bytes!");

  // A copy of the same 24 bytes elsewhere reads relative to the copy's address.
  OffsetBlock other;
  std::memcpy(&other, &block, sizeof(block));
  other.data[0] = 'O';
  EXPECT_EQ(TF_TString_GetDataPointer(&other.str), other.data);
  EXPECT_EQ(Contents(other.str)[0], 'O');
}

TEST(TStringOwnership, AssignAndMoveFromOffsetMakeViews) {
  OffsetBlock block;
  MakeOffset(&block, "offset string of thirty bytes!", 30);
  const Bytes offset_bytes = BytesOf(block.str);
  TF_TString dst;
  TF_TString_Init(&dst);
  TF_TString_Assign(&dst, &block.str);
  EXPECT_EQ(TF_TString_GetType(&dst), TF_TSTR_VIEW);
  EXPECT_EQ(TF_TString_GetDataPointer(&dst), block.data);
  TF_TString_Init(&dst);
  TF_TString_Move(&dst, &block.str);
  EXPECT_EQ(TF_TString_GetType(&dst), TF_TSTR_VIEW);
  EXPECT_EQ(TF_TString_GetDataPointer(&dst), block.data);
  EXPECT_EQ(BytesOf(block.str), offset_bytes);  // the source is not owned, so it stays

  TF_TString_GetMutableDataPointer(&block.str)[0] = 'O';
  EXPECT_EQ(TF_TString_GetType(&block.str), TF_TSTR_LARGE);
  EXPECT_EQ(block.data[0], 'o');
  EXPECT_EQ(Contents(block.str), "Offset string of thirty bytes!");
  TF_TString_Dealloc(&block.str);
}

TEST(TStringOwnership, MoveLeavesLargeAndViewSourcesEmpty) {
  const std::string text(64, 'm');
  TF_TString src, dst;
  TF_TString_Init(&src);
  TF_TString_Init(&dst);
  TF_TString_Copy(&src, text.data(), text.size());
  const char* buffer = TF_TString_GetDataPointer(&src);
  TF_TString_Move(&dst, &src);
  EXPECT_EQ(TF_TString_GetDataPointer(&dst), buffer);  // the buffer moved, no copy
  EXPECT_EQ(BytesOf(src), Bytes(24, 0));

  TF_TString_AssignView(&src, "viewed", 6);
  TF_TString_Move(&dst, &src);  // also frees dst's LARGE buffer
  EXPECT_EQ(TF_TString_GetType(&dst), TF_TSTR_VIEW);
  EXPECT_EQ(Contents(dst), "viewed");
  EXPECT_EQ(BytesOf(src), Bytes(24, 0));

  // As in TensorFlow, a SMALL source is copied and keeps its contents.
  TF_TString_Copy(&src, "small", 5);
  TF_TString_Move(&dst, &src);
  EXPECT_EQ(Contents(dst), "small");
  EXPECT_EQ(Contents(src), "small");
  TF_TString_Dealloc(&dst);
}

TEST(TStringOwnership, AssignCopiesLargeAndSharesViews) {
  const std::string text(50, 'a');
  TF_TString src, dst;
  TF_TString_Init(&src);
  TF_TString_Init(&dst);
  TF_TString_Copy(&src, text.data(), text.size());

  // Assigning a LARGE string over a view copies the bytes into a buffer of dst's own.
  char viewed[] = "viewed bytes";
  TF_TString_AssignView(&dst, viewed, 12);
  TF_TString_Assign(&dst, &src);
  EXPECT_EQ(TF_TString_GetType(&dst), TF_TSTR_LARGE);
  EXPECT_NE(TF_TString_GetDataPointer(&dst), TF_TString_GetDataPointer(&src));
  EXPECT_EQ(Contents(dst), text);
  EXPECT_EQ(std::string(viewed), "viewed bytes");

  // Assigning a view keeps it a view of the same bytes.
  TF_TString_AssignView(&src, viewed, 6);
  TF_TString_Assign(&dst, &src);
  EXPECT_EQ(BytesOf(dst), BytesOf(src));
  EXPECT_EQ(TF_TString_GetDataPointer(&dst), viewed);

  // Assigning a SMALL string copies its 24 bytes.
  TF_TString_Copy(&src, "tiny", 4);
  TF_TString_Assign(&dst, &src);
  EXPECT_EQ(BytesOf(dst), BytesOf(src));
  TF_TString_Dealloc(&src);
  TF_TString_Dealloc(&dst);
}

TEST(TStringOwnership, ViewOwnerReferences) {
  static const char kBytes[] = "owned by someone else";
  CountingOwner owner;
  InitOwner(&owner);
  TF_TString a, b;
  TF_TString_Init(&a);
  TF_TString_Init(&b);
  TF_TString_AssignViewWithOwner(&a, kBytes, 5, &owner.api);
  EXPECT_EQ(owner.refs, 2);
  EXPECT_EQ(Word(a, 16), reinterpret_cast<uintptr_t>(&owner.api));
  TF_TString_Assign(&b, &a);
  EXPECT_EQ(owner.refs, 3);
  TF_TString_Move(&b, &a);  // b's reference is dropped, a's moves to b
  EXPECT_EQ(owner.refs, 2);
  TF_TString_Resize(&b, 7, '+');  // an owned copy: the view's reference goes
  EXPECT_EQ(owner.refs, 1);
  EXPECT_EQ(Contents(b), "owned++");
  TF_TString_AssignViewWithOwner(&a, kBytes, 5, &owner.api);
  TF_TString_Dealloc(&a);
  EXPECT_EQ(owner.refs, 1);
  EXPECT_EQ(BytesOf(a), Bytes(24, 0));
  TF_TString_Dealloc(&b);
}

TEST(TStringCapacity, GrowthAndShrinkPolicy) {
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Reserve(&s, 10);  // fits inline: nothing changes
  EXPECT_EQ(TF_TString_GetType(&s), TF_TSTR_SMALL);
  TF_TString_Copy(&s, "abc", 3);
  TF_TString_Reserve(&s, 100);
  EXPECT_EQ(TF_TString_GetType(&s), TF_TSTR_LARGE);
  EXPECT_EQ(TF_TString_GetCapacity(&s), 111u);  // 16k - 1
  EXPECT_EQ(Contents(s), "abc");
  TF_TString_Reserve(&s, 50);  // never shrinks
  EXPECT_EQ(TF_TString_GetCapacity(&s), 111u);
  TF_TString_ReserveAmortized(&s, 112);  // at least doubles
  EXPECT_EQ(TF_TString_GetCapacity(&s), 223u);
  TF_TString_Resize(&s, 200, 'z');
  EXPECT_EQ(TF_TString_GetCapacity(&s), 223u);
  TF_TString_Resize(&s, 100, 'z');  // below half: shrinks to about half
  EXPECT_EQ(TF_TString_GetCapacity(&s), 111u);
  TF_TString_Resize(&s, 60, 'z');  // not below half of 111
  EXPECT_EQ(TF_TString_GetCapacity(&s), 111u);
  EXPECT_EQ(Contents(s), "abc" + std::string(57, 'z'));
  TF_TString_Dealloc(&s);
}

TEST(TStringEditing, AppendGrowsAmortized) {
  TF_TString s;
  TF_TString_Init(&s);
  std::string model;
  for (int i = 0; i < 100; ++i) {
    const std::string piece = std::to_string(i) + ",";
    TF_TString_AppendN(&s, piece.data(), piece.size());
    model += piece;
  }
  EXPECT_EQ(Contents(s), model);
  EXPECT_EQ(TF_TString_GetDataPointer(&s)[model.size()], '\0');
  EXPECT_GE(TF_TString_GetCapacity(&s), model.size());
  TF_TString_AppendN(&s, "ignored", 0);
  EXPECT_EQ(Contents(s), model);
  TF_TString_Dealloc(&s);
}

TEST(TStringEditing, SelfAssignAndSelfMoveDoNothing) {
  const std::string text(30, 'x');
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_Copy(&s, text.data(), text.size());
  const Bytes bytes = BytesOf(s);
  TF_TString_Assign(&s, &s);
  TF_TString_Move(&s, &s);
  EXPECT_EQ(BytesOf(s), bytes);
  TF_TString_Dealloc(&s);
}

TEST(CApiTypes, StructLayouts) {
  EXPECT_EQ(sizeof(TF_Buffer), 24u);
  EXPECT_EQ(offsetof(TF_Buffer, length), 8u);
  EXPECT_EQ(offsetof(TF_Buffer, data_deallocator), 16u);
  EXPECT_EQ(sizeof(TF_Output), 16u);
  EXPECT_EQ(sizeof(TF_AttrMetadata), 32u);
  EXPECT_EQ(offsetof(TF_WhileParams, cond_graph), 8u);
  EXPECT_EQ(offsetof(TF_WhileParams, cond_output), 24u);
  EXPECT_EQ(offsetof(TF_WhileParams, body_graph), 40u);
  EXPECT_EQ(offsetof(TF_WhileParams, body_outputs), 56u);
  EXPECT_EQ(offsetof(TF_WhileParams, name), 64u);
  EXPECT_EQ(sizeof(TF_WhileParams), 72u);
  EXPECT_EQ(sizeof(TF_FileStatistics), 24u);
  EXPECT_EQ(sizeof(TF_StringView), 16u);
}

}  // namespace
