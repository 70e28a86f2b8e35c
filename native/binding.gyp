{
  "targets": [
    {
      "target_name": "omm_mmap",
      "sources": ["mmap.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
