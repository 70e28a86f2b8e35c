{
  "targets": [
    {
      "target_name": "omm_mmap",
      "sources": ["mmap.c", "lz.c"],
      "cflags": ["-O3", "-Wall", "-Wextra"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
