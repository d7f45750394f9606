#!/bin/sh
# Builds the project.
build() {
  echo "building"
  helper
}

helper() { true; }
build
