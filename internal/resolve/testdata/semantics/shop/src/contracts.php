<?php
namespace Shop\Contracts {
    interface Entity
    {
        public function id(): int;
    }
    interface HasName extends Entity
    {
        public function getName(): string;
    }
}

namespace {
    define('APP_DIR', __DIR__ . '/');
    function strlen_shadow() {}
}
