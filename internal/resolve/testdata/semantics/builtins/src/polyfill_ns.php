<?php
namespace Mailer;

function token()
{
    return random_bytes(8); // through the global fallback: the same polyfill
}
