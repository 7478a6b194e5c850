#include "urdf/bullet_file_check.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <set>
#include <vector>

namespace hydro {
namespace urdf {
namespace {

constexpr size_t kHeaderSize = 12;

// Reads little- or big-endian integers at byte offsets, as the file's header says.
struct Reader {
  const unsigned char* data;
  size_t size;
  bool big_endian;

  bool Has(size_t offset, size_t bytes) const { return offset <= size && bytes <= size - offset; }
  int32_t Int(size_t offset) const {
    const unsigned char* p = data + offset;
    const uint32_t v = big_endian ? (uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3])
                                  : (uint32_t{p[3]} << 24 | uint32_t{p[2]} << 16 | uint32_t{p[1]} << 8 | p[0]);
    return static_cast<int32_t>(v);
  }
  int16_t Short(size_t offset) const {
    const unsigned char* p = data + offset;
    return static_cast<int16_t>(big_endian ? (p[0] << 8 | p[1]) : (p[1] << 8 | p[0]));
  }
  bool Tag(size_t offset, const char* tag) const { return Has(offset, 4) && std::memcmp(data + offset, tag, 4) == 0; }
};

size_t Align4(size_t offset) { return (offset + 3) & ~size_t{3}; }

// The chunk types of Bullet 3.24's serializer (btSerializer.h), DNA1 apart.
const std::string kKnownChunkTypes[] = {"MBDY", "MBLC", "SBDY", "COBJ", "RBDY", "CONS", "BOXS", "QBVH",
                                        "TMAP", "SHAP", "ARAY", "SBMT", "SBND", "DWLD", "CONT"};

std::string Printable(const std::string& code) {
  std::string out;
  for (unsigned char c : code) out += std::isprint(c) ? std::string(1, static_cast<char>(c)) : "?";
  return out;
}

// The type description: its struct table as (type length, ...) for the chunk check.
struct Dna {
  std::vector<int> type_lengths;
  std::vector<int> struct_types;  // per struct, its type index
};

bool CheckDna(const Reader& r, size_t begin, size_t end, Dna* dna, std::string* problem) {
  auto fail = [&](size_t at, const std::string& what) {
    *problem = "type description (DNA1) at byte " + std::to_string(at) + ": " + what;
    return false;
  };
  const Reader in{r.data, end, r.big_endian};  // nothing may be read past the chunk
  size_t at = begin;
  if (!in.Tag(at, "SDNA") || !in.Tag(at + 4, "NAME")) return fail(at, "does not start with SDNA NAME");
  at += 8;
  auto strings = [&](int count, const char* what) {
    if (count < 0 || static_cast<size_t>(count) > end - at) return fail(at, std::string("bad number of ") + what);
    for (int i = 0; i < count; ++i) {
      const void* nul = std::memchr(in.data + at, 0, end - at);
      if (!nul) return fail(at, std::string(what) + " run past the chunk");
      // Bullet reads a name's second character: keep it inside the chunk.
      at = static_cast<size_t>(static_cast<const unsigned char*>(nul) - in.data) + 1;
      if (at >= end) return fail(at, std::string(what) + " run to the chunk's end");
    }
    at = Align4(at);
    return true;
  };
  if (!in.Has(at, 4)) return fail(at, "truncated");
  const int num_names = in.Int(at);
  at += 4;
  if (!strings(num_names, "names")) return false;
  if (!in.Tag(at, "TYPE") || !in.Has(at + 4, 4)) return fail(at, "expected TYPE");
  const int num_types = in.Int(at + 4);
  at += 8;
  if (num_types <= 0 || num_types > 32767 || !strings(num_types, "type names")) return fail(at, "bad type list");
  if (!in.Tag(at, "TLEN")) return fail(at, "expected TLEN");
  at += 4;
  if (!in.Has(at, 2 * static_cast<size_t>(num_types))) return fail(at, "type lengths run past the chunk");
  for (int t = 0; t < num_types; ++t) dna->type_lengths.push_back(in.Short(at + 2 * t));
  at += 2 * static_cast<size_t>(num_types + (num_types & 1));
  if (!in.Tag(at, "STRC") || !in.Has(at + 4, 4)) return fail(at, "expected STRC");
  const int num_structs = in.Int(at + 4);
  at += 8;
  if (num_structs < 0 || static_cast<size_t>(num_structs) > (end - at) / 4) return fail(at, "bad number of structs");
  for (int s = 0; s < num_structs; ++s) {
    if (!in.Has(at, 4)) return fail(at, "structs run past the chunk");
    const int type = in.Short(at), fields = in.Short(at + 2);
    if (type < 0 || type >= num_types) return fail(at, "struct type out of range");
    if (fields < 0 || !in.Has(at + 4, 4 * static_cast<size_t>(fields)))
      return fail(at, "struct fields run past the chunk");
    for (int f = 0; f < fields; ++f) {
      const int field_type = in.Short(at + 4 + 4 * f), field_name = in.Short(at + 6 + 4 * f);
      if (field_type < 0 || field_type >= num_types || field_name < 0 || field_name >= num_names)
        return fail(at, "struct field out of range");
    }
    dna->struct_types.push_back(type);
    at += 4 + 4 * static_cast<size_t>(fields);
  }
  return true;
}

}  // namespace

bool CheckBulletFileLayout(const char* bytes, size_t size, std::string* problem, std::vector<std::string>* notes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes);
  if (size < kHeaderSize || std::memcmp(data, "BULLET", 6) != 0) {
    *problem = "not a .bullet file (it must start with 'BULLET', as btDefaultSerializer writes it)";
    return false;
  }
  const char precision = bytes[6], pointer = bytes[7], endian = bytes[8];
  if ((precision != 'f' && precision != 'd') || (pointer != '_' && pointer != '-') ||
      (endian != 'v' && endian != 'V') || !std::isdigit(static_cast<unsigned char>(bytes[9])) ||
      !std::isdigit(static_cast<unsigned char>(bytes[10])) || !std::isdigit(static_cast<unsigned char>(bytes[11]))) {
    *problem =
        "damaged header '" + std::string(bytes, kHeaderSize) + "' (expected BULLET, f or d, _ or -, v or V, a version)";
    return false;
  }
  const Reader r{data, size, endian == 'V'};
  const size_t chunk_header = 16 + (pointer == '-' ? 8 : 4);
  struct DataChunk {
    size_t at;
    int32_t len, dna_nr, nr;
  };
  std::vector<DataChunk> chunks;
  Dna dna;
  bool has_dna = false;
  std::set<std::string> noted;  // chunk types already noted
  // Bullet's serializer writes DNA1 last and ends the file there; Blender-style files end "ENDB".
  for (size_t at = kHeaderSize; at < size;) {
    if (r.Tag(at, "ENDB")) break;
    if (!r.Has(at, chunk_header)) {
      *problem = "truncated: the chunk at byte " + std::to_string(at) + " has no complete header";
      return false;
    }
    const int32_t len = r.Int(at + 4);
    const int32_t dna_nr = r.Int(at + chunk_header - 8), nr = r.Int(at + chunk_header - 4);
    if (len < 0 || !r.Has(at + chunk_header, static_cast<size_t>(len))) {
      *problem = "the chunk at byte " + std::to_string(at) + " runs past the end of the file (" + std::to_string(len) +
                 " bytes; truncated or damaged)";
      return false;
    }
    if (r.Tag(at, "DNA1")) {
      if (has_dna) {
        *problem = "a second type description (DNA1) at byte " + std::to_string(at);
        return false;
      }
      if (!CheckDna(r, at + chunk_header, at + chunk_header + len, &dna, problem)) return false;
      has_dna = true;
    } else {
      chunks.push_back({at, len, dna_nr, nr});
      const std::string code(bytes + at, 4);
      if (notes && !noted.count(code)) {
        if (code == "SBDY") {
          notes->push_back(
              "the file's soft bodies are not loaded (Bullet's btMultiBodyWorldImporter reads rigid "
              "bodies and multibodies)");
        } else if (std::find(std::begin(kKnownChunkTypes), std::end(kKnownChunkTypes), code) ==
                   std::end(kKnownChunkTypes)) {
          notes->push_back("chunk type '" + Printable(code) + "' at byte " + std::to_string(at) +
                           " is not one Bullet 3.24 writes; skipped");
        }
        noted.insert(code);
      }
    }
    at += chunk_header + len;
  }
  if (!has_dna) {
    *problem = "no type description (DNA1 chunk)";
    return false;
  }
  for (const DataChunk& c : chunks) {
    if (c.dna_nr < 0) continue;  // raw bytes (a name: "char", which has no struct); Bullet skips them
    if (c.dna_nr >= static_cast<int>(dna.struct_types.size()) || c.nr < 0) {
      *problem = "the chunk at byte " + std::to_string(c.at) + " names struct " + std::to_string(c.dna_nr) + " of " +
                 std::to_string(dna.struct_types.size()) + " (damaged)";
      return false;
    }
    const int64_t needed = int64_t{c.nr} * dna.type_lengths[dna.struct_types[c.dna_nr]];
    if (needed > c.len) {
      *problem = "the chunk at byte " + std::to_string(c.at) + " holds " + std::to_string(c.len) + " bytes for " +
                 std::to_string(c.nr) + " structs of " + std::to_string(needed / std::max(c.nr, 1)) + " (damaged)";
      return false;
    }
  }
  return true;
}

}  // namespace urdf
}  // namespace hydro
