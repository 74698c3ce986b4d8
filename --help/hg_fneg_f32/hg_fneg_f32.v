// hg_fneg_f32: latency 1 cycle, one operation per cycle (rtl/float_units.h)
module hg_fneg_f32 (
  input wire clk,
  input wire [31:0] a,
  output wire [31:0] y
);
  wire a_sign = a[31];
  wire sign = ~a_sign;
  wire [30:0] a_mag = a[30:0];
  wire [22:0] a_frac = a[22:0];
  wire [7:0] a_exp = a[30:23];
  wire a_nan = (&a_exp) & (|a_frac);
  wire [31:0] result = a_nan ? {sign, {8{1'b1}}, 1'b1, a_frac[21:0]} : {sign, a_mag};
  reg [31:0] result_p1;
  assign y = result_p1;
  always @(posedge clk) begin
    result_p1 <= result;
  end
endmodule
