#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Regenerates configure and the Makefiles.
exec autoreconf -fi "$(dirname "$0")"
