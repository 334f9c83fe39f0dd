#!/bin/sh
# Regenerates configure and the Makefiles.
exec autoreconf -fi "$(dirname "$0")"
