<?php
echo "Hello " . $name;
