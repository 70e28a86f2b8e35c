#!/usr/bin/env bash
# Rebuilds the bundled sample catalog (data/raw) from the real Chinook database and the
# Exportify playlist exports. Needs ../shared/datasets (or DATASETS=<dir>) and a built project.
set -euo pipefail
cd "$(dirname "$0")/.."
datasets=${DATASETS:-../shared/datasets}
npm run build --silent
node bin/omm import chinook "$datasets/chinook/ChinookData.json" --out data/raw
node bin/omm import exportify "$datasets/spotify-exportify-playlists-sample/liked.csv" "$datasets/spotify-exportify-playlists-sample/樂舒簡.csv" --out data/raw --merge
