<?php
namespace App;

function namespaced_mode(): int
{
    return \APP_MODE === 'binary' ? FTP_BINARY : 1; // the global fallback finds PHP's FTP_BINARY
}
