<?php
// a fallback for PHP's own constant: define() of an existing constant fails,
// so uses are PHP's; the project's own constant is the project's
if (!defined('FTP_BINARY')) {
    define('FTP_BINARY', 2);
}
define('APP_MODE', 'binary');

function transfer_mode(): int
{
    return APP_MODE === 'binary' ? FTP_BINARY : 1;
}
