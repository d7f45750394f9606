<?php

namespace App\Models;

use Illuminate\Database\Eloquent\Model;

class Invoice extends Model
{
    protected $fillable = ['number', 'total'];

    protected $casts = ['paid_at' => 'datetime'];
}
