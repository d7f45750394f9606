<?php

namespace App\Models;

use App\Models\Invoice;

class Report
{
    public function unpaid()
    {
        return Invoice::where('paid_at', null)->get();
    }
}
