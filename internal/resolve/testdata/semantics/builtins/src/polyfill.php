<?php
// a polyfill the project ships for a built-in function
if (!function_exists('random_bytes')) {
    function random_bytes($length)
    {
        return str_repeat("\0", $length);
    }
}

function global_token()
{
    return random_bytes(8); // the project's polyfill, as written in the global namespace
}
