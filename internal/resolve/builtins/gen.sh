#!/bin/sh
# Regenerates php.txt from a Debian php-cli with the common extensions:
#   apt-get install -y php-cli php-mbstring php-xml php-curl php-intl php-mysql php-gd php-zip
set -eu
cd "$(dirname "$0")"
php gen.php > php.txt
