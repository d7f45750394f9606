def ok():
    return 1

def broken(:
    pass
