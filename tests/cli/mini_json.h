#pragma once
// A small JSON reader for checking the tool's outputs against their schemas in tests.
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hydro {
namespace test {

struct Json {
  enum Type { kNull, kBool, kNumber, kString, kArray, kObject } type{kNull};
  bool boolean{false};
  double number{0};
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;
  bool Has(const std::string& key) const { return type == kObject && object.count(key); }
  const Json& operator[](const std::string& key) const { return object.at(key); }
  const Json& operator[](size_t i) const { return array.at(i); }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : s_(text) {}
  // False on any syntax error or trailing garbage.
  bool Parse(Json* out) {
    if (!Value(out)) return false;
    Skip();
    return i_ == s_.size();
  }

 private:
  void Skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool Literal(const char* word) {
    const std::string w(word);
    if (s_.compare(i_, w.size(), w) != 0) return false;
    i_ += w.size();
    return true;
  }
  bool String(std::string* out) {
    if (s_[i_] != '"') return false;
    ++i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\') {
        ++i_;
        if (i_ >= s_.size()) return false;
        if (s_[i_] == 'u') {
          i_ += 4;
          out->push_back('?');
        } else {
          out->push_back(s_[i_] == 'n' ? '\n' : s_[i_] == 't' ? '\t' : s_[i_]);
        }
      } else {
        out->push_back(s_[i_]);
      }
      ++i_;
    }
    if (i_ >= s_.size()) return false;
    ++i_;
    return true;
  }
  bool Value(Json* out) {
    Skip();
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '{') {
      out->type = Json::kObject;
      ++i_;
      Skip();
      if (s_[i_] == '}') return ++i_, true;
      while (true) {
        Skip();
        std::string key;
        if (!String(&key)) return false;
        Skip();
        if (s_[i_++] != ':') return false;
        if (!Value(&out->object[key])) return false;
        Skip();
        if (s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (s_[i_] == '}') return ++i_, true;
        return false;
      }
    }
    if (c == '[') {
      out->type = Json::kArray;
      ++i_;
      Skip();
      if (s_[i_] == ']') return ++i_, true;
      while (true) {
        out->array.emplace_back();
        if (!Value(&out->array.back())) return false;
        Skip();
        if (s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (s_[i_] == ']') return ++i_, true;
        return false;
      }
    }
    if (c == '"') {
      out->type = Json::kString;
      return String(&out->string);
    }
    if (Literal("true")) return out->type = Json::kBool, out->boolean = true, true;
    if (Literal("false")) return out->type = Json::kBool, true;
    if (Literal("null")) return out->type = Json::kNull, true;
    char* end = nullptr;
    out->number = std::strtod(s_.c_str() + i_, &end);
    if (end == s_.c_str() + i_) return false;
    out->type = Json::kNumber;
    i_ = end - s_.c_str();
    return true;
  }
  const std::string& s_;
  size_t i_{0};
};

}  // namespace test
}  // namespace hydro
