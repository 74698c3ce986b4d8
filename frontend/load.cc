#include "frontend/load.h"

#include <filesystem>

#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/error.h"
#include "ir/verifier.h"

namespace hlsgym::frontend {

Design load_design(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  const bool yaml = ext == ".yaml" || ext == ".yml";
  const bool hlo = ext == ".hlo" || ext == ".txt";
  if (!yaml && !hlo)
    throw Error("unknown design file type '" + ext + "' (expected .yaml, .yml, .hlo or .txt)", {path});
  const std::string text = read_file(path);
  if (yaml) return load_yaml_design(text, path);
  Design d;
  d.module = parse_hlo(text, path);
  ir::verify(d.module);
  d.name = d.module.name();
  d.path = path;
  return d;
}

}  // namespace hlsgym::frontend
