import "1" as $x;
include "6";
def h: [$x,g];
