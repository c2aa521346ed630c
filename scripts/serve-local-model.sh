#!/usr/bin/env bash
# Starts llama.cpp's llama-server on loopback with your own weights, for a live evaluation (docs/live-evaluation.md).
#
#   scripts/serve-local-model.sh MODEL.gguf [PORT]
#
# Needs llama-server on the PATH (built or installed by you); nothing in the kit's build runs this. The server binds to
# 127.0.0.1 only, enables the model's chat template and native tool calls (--jinja), and is stopped with Ctrl-C.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  echo "usage: scripts/serve-local-model.sh MODEL.gguf [PORT]" >&2
  exit 2
fi
model=$1
port=${2:-8080}
if [ ! -f "$model" ]; then
  echo "serve-local-model: no model file at '$model'" >&2
  exit 2
fi
case "$port" in
  ''|*[!0-9]*) echo "serve-local-model: PORT must be a number, got '$port'" >&2; exit 2 ;;
esac
if ! command -v llama-server > /dev/null 2>&1; then
  echo "serve-local-model: llama-server is not on the PATH (build llama.cpp, or use vLLM or Ollama: docs/live-evaluation.md)" >&2
  exit 2
fi
echo "serve-local-model: when the server says it is listening, run from the kit's folder:"
echo "  java -jar cli/target/agentlab.jar run --provider live --live-base-url http://127.0.0.1:$port/v1 \\"
echo "      --config agentlab.provider.live.model=local-model --report live-report"
exec llama-server -m "$model" --host 127.0.0.1 --port "$port" --jinja --alias local-model
