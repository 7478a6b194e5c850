#pragma once
// A structural check of a .bullet file before Bullet's own reader sees it. Bullet's bFile trusts
// every length and index in the file: a truncated or damaged file makes it read past its buffer.
// This walks the layout Bullet's serializer writes (btSerializer.h, bFile.cpp, bDNA.cpp):
//
//   header   "BULLET" + 'f'|'d' (precision) + '_'|'-' (4- or 8-byte pointers) + 'v'|'V' (little
//            or big endian) + three version digits: 12 bytes
//   chunks   code (4 chars), len (int), old pointer (4 or 8 bytes), dna_nr (int), nr (int), then
//            len bytes, to the end of the file (or an "ENDB" code); dna_nr < 0 marks raw bytes
//   DNA1     the type description: "SDNA" "NAME" n names, "TYPE" m type names, "TLEN" m sizes,
//            "STRC" k structs (type, field count, then (type, name) per field), each list
//            4-byte aligned
//
// and checks that every chunk lies inside the file, that the description's indices are in
// range, and that each data chunk is as long as its nr structs. It does not check what the
// structs hold (counts inside them, say, are Bullet's to trust).
#include <cstddef>
#include <string>
#include <vector>

namespace hydro {
namespace urdf {

// True if `data` has the layout above; else false with what is wrong and at which byte. What the
// importer will skip goes to `notes` (if given): chunk types Bullet 3.24's serializer does not
// write (a newer Bullet's, say: skipped, as Bullet's reader skips them) and soft bodies
// (btMultiBodyWorldImporter reads rigid bodies and multibodies only).
bool CheckBulletFileLayout(const char* data, size_t size, std::string* problem,
                           std::vector<std::string>* notes = nullptr);

}  // namespace urdf
}  // namespace hydro
