def g: 45;
